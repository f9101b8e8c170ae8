import { describe, expect, it } from 'vitest';
import { cloneDocument } from '../../../src/domain/document-clone';

describe('cloneDocument', () => {
  const original = { code: 'ABC', teams: { red: [{ userId: 1, readyUntil: null }] }, pool: [2, 3], votes: { '2': 'cp_x' } as Record<string, string>, flag: true };

  it('copies a document into an equal one', () => {
    expect(cloneDocument(original)).toEqual(original);
  });

  it('shares no object or array with the original, so mutating the copy leaves the original as it was', () => {
    const copy = cloneDocument(original);
    copy.teams.red[0].userId = 9;
    copy.pool.push(4);
    copy.votes['3'] = 'cp_y';
    expect(original).toEqual({ code: 'ABC', teams: { red: [{ userId: 1, readyUntil: null }] }, pool: [2, 3], votes: { '2': 'cp_x' }, flag: true });
  });

  it('keeps arrays as arrays and null as null', () => {
    const copy = cloneDocument({ list: [null, [1]], none: null });
    expect(Array.isArray(copy.list)).toBe(true);
    expect(Array.isArray(copy.list[1])).toBe(true);
    expect(copy.none).toBeNull();
  });
});
