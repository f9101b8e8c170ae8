import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateGiftCode, giftCodeStatus, isGiftCode, redeemRefusal } from '../../../src/domain/premium/gift-code';

/** Bytes from a fixed list, as many as asked for each time. */
function scripted(bytes: number[]): (n: number) => Uint8Array {
  let at = 0;
  return (n) => {
    const out = Uint8Array.from(bytes.slice(at, at + n));
    at += n;
    return out;
  };
}

describe('gift code generation', () => {
  it('draws four groups of four from A-Z0-9', () => {
    for (let i = 0; i < 200; i++) expect(generateGiftCode((n) => randomBytes(n))).toMatch(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/);
  });

  it('maps each random byte below 252 to one character', () => {
    const bytes = [0, 25, 26, 35, 36, 71, 72, 251, 1, 2, 3, 4, 5, 6, 7, 8];
    expect(generateGiftCode(scripted(bytes))).toBe('AZ09-A9A9-BCDE-FGHI');
  });

  it('skips bytes of 252 and above so every character is equally likely', () => {
    const bytes = [252, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 253, 1, 1, 1, 1];
    expect(generateGiftCode(scripted(bytes))).toBe('AAAA-AAAA-AAAA-AAAB');
  });
});

describe('gift code format', () => {
  it.each(['ABCD-EFGH-JKLM-2345', '0000-0000-0000-0000'])('accepts %s', (code) => expect(isGiftCode(code)).toBe(true));
  it.each(['abcd-efgh-jklm-2345', 'ABCD-EFGH-JKLM', 'ABCDEFGHJKLM2345', 'ABCD-EFGH-JKLM-23456', ' ABCD-EFGH-JKLM-2345'])('refuses %j', (code) =>
    expect(isGiftCode(code)).toBe(false),
  );
});

describe('gift code status', () => {
  const now = new Date('2026-06-01T00:00:00Z');
  const later = new Date('2026-07-01T00:00:00Z');

  it('reads an active code past its expiry as expired and refuses it with gone', () => {
    const code = { status: 'active' as const, expiresAt: now };
    expect(giftCodeStatus(code, now)).toBe('expired');
    expect(redeemRefusal(code, now)).toMatchObject({ kind: 'gone', message: 'this gift code is expired' });
  });

  it('lets an active code before its expiry be redeemed', () => {
    expect(redeemRefusal({ status: 'active', expiresAt: later }, now)).toBeNull();
  });

  it.each(['redeemed', 'revoked'] as const)('refuses a %s code with gone', (status) => {
    expect(redeemRefusal({ status, expiresAt: later }, now)).toMatchObject({ kind: 'gone', message: `this gift code is ${status}` });
  });
});
