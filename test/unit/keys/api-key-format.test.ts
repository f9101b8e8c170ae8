import { describe, expect, it } from 'vitest';
import { formatApiKey, hashApiKey, isApiKey, keyPrefix, parseBearer } from '../../../src/domain/keys/api-key-format';

const bytes = (fill: number) => new Uint8Array(32).fill(fill);
const BODY = 'A'.repeat(43);
/** Every kind of character the url-safe alphabet has, 43 in all. */
const MIXED = 'abcXYZ019-_'.repeat(3) + 'klmnopqrst';

describe('formatting an API key', () => {
  it('gives a premium key the svc_pk_ prefix and 43 base64url characters', () => {
    expect(formatApiKey('premium', bytes(0))).toBe(`svc_pk_${BODY}`);
  });

  it('gives an admin key the svc_ak_ prefix', () => {
    expect(formatApiKey('admin', bytes(0))).toBe(`svc_ak_${BODY}`);
  });

  it('uses the url-safe alphabet without padding', () => {
    const key = formatApiKey('premium', bytes(0xff));
    expect(key).toBe(`svc_pk_${'_'.repeat(42)}8`);
    expect(key).not.toMatch(/[+/=]/);
  });

  it('is always 50 characters long and a valid key', () => {
    for (let b = 0; b < 256; b += 17) {
      const key = formatApiKey('admin', Uint8Array.from({ length: 32 }, (_, i) => (b + i * 13) % 256));
      expect(key).toHaveLength(50);
      expect(isApiKey(key)).toBe(true);
    }
  });

  it.each([0, 31, 33])('refuses %i random bytes', (length) => {
    expect(() => formatApiKey('premium', new Uint8Array(length))).toThrow(RangeError);
  });
});

describe('reading a bearer header', () => {
  it.each([
    ['premium', `Bearer svc_pk_${BODY}`, `svc_pk_${BODY}`],
    ['admin', `Bearer svc_ak_${BODY}`, `svc_ak_${BODY}`],
    ['premium', `Bearer svc_pk_${MIXED}`, `svc_pk_${MIXED}`],
    // The scheme is case-insensitive (RFC 9110 section 11.1); the key itself is not.
    ['premium', `bearer svc_pk_${BODY}`, `svc_pk_${BODY}`],
    ['admin', `BEARER svc_ak_${BODY}`, `svc_ak_${BODY}`],
  ])('finds a %s key in %s', (kind, header, raw) => {
    expect(parseBearer(header)).toEqual({ kind, raw });
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['a key without the scheme', `svc_pk_${BODY}`],
    ['an upper-case key prefix', `Bearer SVC_PK_${BODY}`],
    ['another scheme', `Basic svc_pk_${BODY}`],
    ['two spaces', `Bearer  svc_pk_${BODY}`],
    ['a trailing space', `Bearer svc_pk_${BODY} `],
    ['a leading space', ` Bearer svc_pk_${BODY}`],
    ['a trailing newline', `Bearer svc_pk_${BODY}\n`],
    ['42 characters', `Bearer svc_pk_${'A'.repeat(42)}`],
    ['44 characters', `Bearer svc_pk_${'A'.repeat(44)}`],
    ['a standard-base64 character', `Bearer svc_pk_${'A'.repeat(42)}+`],
    ['padding', `Bearer svc_pk_${'A'.repeat(42)}=`],
    ['an unknown key type', `Bearer svc_xk_${BODY}`],
    ['an upper-case prefix', `Bearer SVC_PK_${BODY}`],
  ])('ignores %s', (_, header) => {
    expect(parseBearer(header)).toBeNull();
  });

  it('reads back every key it formats', () => {
    const raw = formatApiKey('admin', Uint8Array.from({ length: 32 }, (_, i) => i * 8));
    expect(parseBearer(`Bearer ${raw}`)).toEqual({ kind: 'admin', raw });
  });
});

describe('hashing and showing a key', () => {
  it('hashes with SHA-256 as lower-case hex', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('gives different keys different hashes', () => {
    expect(hashApiKey(formatApiKey('premium', bytes(1)))).not.toBe(hashApiKey(formatApiKey('premium', bytes(2))));
  });

  it('shows the first 12 characters: the prefix and five of the random part', () => {
    expect(keyPrefix(`svc_pk_abcdefghij${'A'.repeat(33)}`)).toBe('svc_pk_abcde');
  });
});
