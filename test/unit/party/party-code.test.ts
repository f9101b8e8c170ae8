import { describe, expect, it } from 'vitest';
import { generatePartyCode, PARTY_CODE_PATTERN } from '../../../src/domain/party/party-code';

describe('party codes', () => {
  it('are six characters from the unambiguous alphabet', () => {
    for (let seed = 0; seed < 256; seed++) {
      const bytes = Uint8Array.from({ length: 6 }, (_, i) => (seed * 7 + i * 31) % 256);
      expect(generatePartyCode(bytes)).toMatch(PARTY_CODE_PATTERN);
    }
  });

  it('never contain 0, O, 1 or I', () => {
    const all = Array.from({ length: 256 }, (_, b) => generatePartyCode(new Uint8Array(6).fill(b))).join('');
    expect(all).not.toMatch(/[01OI]/);
  });

  it('use every symbol of the alphabet', () => {
    const all = new Set(Array.from({ length: 32 }, (_, b) => generatePartyCode(new Uint8Array(6).fill(b))[0]));
    expect(all.size).toBe(32);
  });

  it('depend only on the bytes given', () => {
    const bytes = Uint8Array.from([1, 2, 3, 4, 5, 6]);
    expect(generatePartyCode(bytes)).toBe(generatePartyCode(Uint8Array.from(bytes)));
    expect(generatePartyCode(bytes)).toBe('BCDEFG');
  });

  it('refuse fewer than six random bytes', () => {
    expect(() => generatePartyCode(new Uint8Array(5))).toThrow(RangeError);
  });
});
