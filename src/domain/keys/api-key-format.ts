import { createHash } from 'node:crypto';

export type ApiKeyKind = 'premium' | 'admin';

const PREFIX: Record<ApiKeyKind, string> = { premium: 'svc_pk_', admin: 'svc_ak_' };

/** 32 random bytes in base64url without padding are exactly 43 characters. */
export const API_KEY_RANDOM_BYTES = 32;
export const API_KEY_BODY_LENGTH = 43;
/** Prefix plus a few random characters: enough to tell keys apart in a list, useless to an attacker. */
export const API_KEY_DISPLAY_LENGTH = 12;

const RAW_KEY = /^svc_(pk|ak)_[A-Za-z0-9_-]{43}$/;
// Only this exact header shape is a key; anything else is not a bearer key at all. The scheme
// name is case-insensitive (RFC 9110 section 11.1), the key is not.
const BEARER = /^[Bb][Ee][Aa][Rr][Ee][Rr] (svc_(pk|ak)_[A-Za-z0-9_-]{43})$/;

export function formatApiKey(kind: ApiKeyKind, random32: Uint8Array): string {
  if (random32.length !== API_KEY_RANDOM_BYTES) {
    throw new RangeError(`an API key needs exactly ${API_KEY_RANDOM_BYTES} random bytes, got ${random32.length}`);
  }
  return PREFIX[kind] + Buffer.from(random32).toString('base64url');
}

export const isApiKey = (raw: string): boolean => RAW_KEY.test(raw);

export interface BearerKey {
  kind: ApiKeyKind;
  raw: string;
}

export function parseBearer(header: string | undefined): BearerKey | null {
  const match = header === undefined ? null : BEARER.exec(header);
  if (!match) return null;
  return { kind: match[2] === 'pk' ? 'premium' : 'admin', raw: match[1] };
}

/** Only this hash is stored (spec, Authentication rule 4); lookups hash the presented key. */
export const hashApiKey = (raw: string): string => createHash('sha256').update(raw, 'utf8').digest('hex');

export const keyPrefix = (raw: string): string => raw.slice(0, API_KEY_DISPLAY_LENGTH);
