import { describe, expect, it } from 'vitest';
import { sameState } from '../../../src/domain/structural-sharing';

describe('sameState', () => {
  it('finds two documents with the same content equal whatever their key order', () => {
    expect(sameState({ a: 1, b: { c: [1, 2], d: null } }, { b: { d: null, c: [1, 2] }, a: 1 })).toBe(true);
  });

  it('tells documents apart by a value deep inside', () => {
    expect(sameState({ teams: { red: [{ userId: 1 }] } }, { teams: { red: [{ userId: 2 }] } })).toBe(false);
  });

  it('tells documents apart by a key only one of them has, either way round', () => {
    expect(sameState({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameState({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(sameState({ a: 1, b: undefined }, { a: 1, c: undefined })).toBe(false);
  });

  it('tells arrays apart by length and by order', () => {
    expect(sameState([1, 2], [1, 2, 3])).toBe(false);
    expect(sameState([1, 2], [2, 1])).toBe(false);
    expect(sameState([], [])).toBe(true);
  });

  it('never finds an array equal to an object, even one with the same indices as keys', () => {
    expect(sameState([1], { 0: 1 })).toBe(false);
    expect(sameState({ 0: 1 }, [1])).toBe(false);
    expect(sameState([], {})).toBe(false);
  });

  it('compares scalars by value and null only with null', () => {
    expect(sameState('x', 'x')).toBe(true);
    expect(sameState(1, '1')).toBe(false);
    expect(sameState(null, {})).toBe(false);
    expect(sameState({}, null)).toBe(false);
    expect(sameState(null, null)).toBe(true);
  });
});
