import { describe, expect, it } from 'vitest';
import { LruMap } from '../../../src/collections/lru-map';

describe('LruMap', () => {
  it('never holds more entries than its capacity, however many are set', () => {
    const map = new LruMap<string, number>(100);
    for (let i = 0; i < 10_000; i++) {
      map.set(`forged-${i}`, i);
      expect(map.size).toBeLessThanOrEqual(100);
    }
    expect(map.size).toBe(100);
  });

  it('forgets the least recently used entry first, a read counting as a use', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    expect(map.get('a')).toBe(1);
    map.set('c', 3);
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([1, undefined, 3]);
  });

  it('replaces the value of a key it holds without forgetting another', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3);
    expect([map.size, map.get('a'), map.get('b')]).toEqual([2, 3, 2]);
  });

  it('forgets, of entries all read, the one whose last read is oldest once the eviction has passed them all', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.get('a');
    map.get('b');
    map.set('c', 3);
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('refuses a capacity that could not hold one entry', () => {
    expect(() => new LruMap(0)).toThrow(RangeError);
  });
});
