import { DomainError } from '../domain-error';

/**
 * Gift codes as the specification fixes them: four groups of four from A-Z and 0-9, separated by
 * hyphens. Each character takes one random byte; bytes of 252 and above are skipped (252 is the
 * largest multiple of 36 under 256), so every character is equally likely.
 */
export const GIFT_CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const GIFT_CODE_PATTERN = /^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/;
const CHARS = 16;
const LIMIT = 252;

export type GiftCodeStatus = 'active' | 'redeemed' | 'revoked' | 'expired';

/** How long a bought code can be redeemed. */
export const GIFT_CODE_VALID_DAYS = 365;

/** `random(n)` returns n bytes from a secure source; it is asked again when bytes are skipped. */
export function generateGiftCode(random: (n: number) => Uint8Array): string {
  let chars = '';
  while (chars.length < CHARS) {
    for (const byte of random(CHARS - chars.length + 4)) {
      if (byte < LIMIT && chars.length < CHARS) chars += GIFT_CODE_ALPHABET[byte % GIFT_CODE_ALPHABET.length];
    }
  }
  return chars.match(/.{4}/g)!.join('-');
}

export function isGiftCode(text: string): boolean {
  return GIFT_CODE_PATTERN.test(text);
}

export interface StoredGiftCode {
  status: 'active' | 'redeemed' | 'revoked';
  expiresAt: Date;
}

/** The status a client sees: an active code past its end reads as expired. */
export function giftCodeStatus(code: StoredGiftCode, now: Date): GiftCodeStatus {
  if (code.status === 'active' && code.expiresAt.getTime() <= now.getTime()) return 'expired';
  return code.status;
}

/** Why a code cannot be redeemed (410), or null when it can. */
export function redeemRefusal(code: StoredGiftCode, now: Date): DomainError | null {
  const status = giftCodeStatus(code, now);
  if (status === 'active') return null;
  return new DomainError('gone', `this gift code is ${status}`);
}
