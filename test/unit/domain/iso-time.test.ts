import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../../src/domain/iso-time';

const toISOString = (ms: number) => new Date(ms).toISOString();

describe('isoTime', () => {
  it('writes any whole millisecond of years 1000-9999 exactly as toISOString does', () => {
    const [from, to] = [Date.UTC(1000, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59, 999)];
    fc.assert(fc.property(fc.integer({ min: from, max: to }), (ms) => isoTime(ms) === toISOString(ms)), { numRuns: 20_000 });
  });

  it.each([
    ['the epoch', 0],
    ['a leap day', Date.UTC(2024, 1, 29, 12, 0, 0, 5)],
    ['the last millisecond of a century leap year', Date.UTC(2000, 11, 31, 23, 59, 59, 999)],
    ['the day after 1900-02-28 (no leap day)', Date.UTC(1900, 2, 1)],
    ['a time before the epoch', Date.UTC(1969, 11, 31, 23, 59, 59, 999)],
  ])('writes %s as toISOString does', (_what, ms) => {
    expect(isoTime(ms)).toBe(toISOString(ms));
  });

  it.each([
    ['a year before 1000', Date.UTC(999, 11, 31)],
    ['a year after 9999', Date.UTC(10_000, 0, 1)],
    ['a fractional millisecond', 1.5],
  ])('leaves %s to Date', (_what, ms) => {
    expect(isoTime(ms)).toBe(toISOString(ms));
  });
});
