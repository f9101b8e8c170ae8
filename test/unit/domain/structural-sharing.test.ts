import { describe, expect, it } from 'vitest';
import { sharedCopy } from '../../../src/domain/structural-sharing';
import { deepFreeze } from '../../support/deep-freeze';

describe('sharedCopy', () => {
  it('answers the document before itself when the two have the same content, whatever their key order', () => {
    const before = { a: 1, b: { c: [1, 2], d: null } };
    expect(sharedCopy(before, { b: { d: null, c: [1, 2] }, a: 1 })).toBe(before);
  });

  it("answers the new document's content with every unchanged part the old document's own object", () => {
    const before = { red: [{ userId: 1, ready: false }, { userId: 2, ready: false }], blu: [{ userId: 3, ready: false }] };
    const next = { red: [{ userId: 1, ready: false }, { userId: 2, ready: true }], blu: [{ userId: 3, ready: false }] };

    const shared = sharedCopy(before, next);

    expect(shared).toEqual(next);
    expect(shared.red[0]).toBe(before.red[0]);
    expect(shared.blu).toBe(before.blu);
    expect(shared.red[1]).not.toBe(before.red[1]);
  });

  it('changes neither document it is given', () => {
    const before = deepFreeze({ red: [{ userId: 1 }, { userId: 2 }], pool: [4, 5] });
    const next = deepFreeze({ red: [{ userId: 1 }, { userId: 9 }], pool: [4, 5] });

    const shared = sharedCopy(before, next);

    expect(shared).toEqual({ red: [{ userId: 1 }, { userId: 9 }], pool: [4, 5] });
    expect(shared.pool).toBe(before.pool);
    expect(shared).not.toBe(next);
  });

  it('answers the new document itself when none of its parts equals the old one', () => {
    const next = { a: { b: 2 }, c: [3] };
    expect(sharedCopy({ a: { b: 1 }, c: [4] }, next)).toBe(next);
  });

  it('shares the leading items of an array that grew', () => {
    const before = [{ id: 1 }, { id: 2 }];
    const shared = sharedCopy(before, [{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(shared).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(shared[1]).toBe(before[1]);
  });
});
