import { describe, expect, it } from 'vitest';
import { applyJsonPatch, diffJson } from '../../realtime/json-patch';
import { sampleLobby } from './support/fake-lobby-services';

const roundTrip = (from: unknown, to: unknown) => applyJsonPatch(structuredClone(from), diffJson(from, to));

describe('lobby:patch ops (RFC 6902)', () => {
  it('turn a lobby into its next version with a few small ops rather than the whole document', () => {
    const before = sampleLobby('AB12', 4);
    const after = { ...structuredClone(before), version: 5, votes: { koth_product: 1 } };

    const ops = diffJson(before, after);

    expect(ops).toEqual([
      { op: 'replace', path: '/votes/koth_product', value: 1 },
      { op: 'replace', path: '/version', value: 5 },
    ]);
    expect(roundTrip(before, after)).toEqual(after);
  });

  it('grow and shrink arrays, add and remove keys, and escape ~ and / in keys', () => {
    const before = { pool: [{ id: 1 }, { id: 2 }, { id: 3 }], votes: { 'a/b': 1, 'c~d': 2 }, turn: null };
    const after = { pool: [{ id: 1 }], votes: { 'c~d': 3, 'e/f~': 1 }, turn: 'red', extra: [1, 2] };

    expect(roundTrip(before, after)).toEqual(after);
    expect(roundTrip(after, before)).toEqual(before);
  });

  it('answer no ops for equal documents', () => {
    expect(diffJson(sampleLobby('AB12'), sampleLobby('AB12'))).toEqual([]);
  });
});
