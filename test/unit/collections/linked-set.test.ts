import { describe, expect, it } from 'vitest';
import { LinkedSet } from '../../../src/collections/linked-set';

describe('LinkedSet', () => {
  it('holds what was added, oldest first, until it is removed', () => {
    const set = new LinkedSet<string>();
    const a = set.add('a');
    set.add('b');
    const c = set.add('c');
    set.remove(a);
    set.remove(c);
    expect(set.size).toBe(1);
    expect(set.removeAll()).toEqual(['b']);
  });

  it('removes a member from the middle without losing its neighbours', () => {
    const set = new LinkedSet<number>();
    const entries = [1, 2, 3, 4].map((n) => set.add(n));
    set.remove(entries[1]!);
    set.remove(entries[2]!);
    expect(set.removeAll()).toEqual([1, 4]);
  });

  it('lets go of a removed member and its neighbours at once', () => {
    const set = new LinkedSet<object>();
    set.add({});
    const middle = set.add({});
    set.add({});
    set.remove(middle);
    expect(middle).toEqual({ value: undefined, previous: null, next: null });
  });

  it('changes nothing when an entry is removed twice', () => {
    const set = new LinkedSet<string>();
    const a = set.add('a');
    set.add('b');
    set.remove(a);
    set.remove(a);
    expect(set.size).toBe(1);
    expect(set.removeAll()).toEqual(['b']);
  });

  it('is empty after removeAll, and an entry removed by it can be removed again harmlessly', () => {
    const set = new LinkedSet<string>();
    const a = set.add('a');
    set.add('b');
    expect(set.removeAll()).toEqual(['a', 'b']);
    set.remove(a);
    expect(set.size).toBe(0);
    set.add('c');
    expect(set.removeAll()).toEqual(['c']);
  });

  it('shows its oldest entry first, and nothing when empty', () => {
    const set = new LinkedSet<string>();
    expect(set.first).toBeNull();
    const a = set.add('a');
    set.add('b');
    expect(set.first?.value).toBe('a');
    set.remove(a);
    expect(set.first?.value).toBe('b');
  });
});
