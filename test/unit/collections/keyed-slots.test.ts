import { describe, expect, it } from 'vitest';
import { KeyedSlots } from '../../../src/collections/keyed-slots';

const counters = (floor?: number) => new KeyedSlots<string, { uses: number }>(() => ({ uses: 0 }), (slot) => slot.uses === 0, floor);

describe('KeyedSlots', () => {
  it('answers the same slot for a key every time, made on first use', () => {
    const slots = counters();
    expect(slots.peek('a')).toBeUndefined();
    const a = slots.slot('a');
    a.uses++;
    expect(slots.slot('a')).toBe(a);
    expect(slots.peek('a')).toBe(a);
  });

  it('removes idle slots only in a sweep, and keeps the others in place', () => {
    const slots = counters();
    const busy = slots.slot('busy');
    busy.uses = 1;
    slots.slot('idle');
    expect(slots.size).toBe(2);
    slots.sweep();
    expect(slots.size).toBe(1);
    expect(slots.peek('idle')).toBeUndefined();
    expect(slots.slot('busy')).toBe(busy);
  });

  it('sweeps by itself once the keys reach the floor, before making the next slot', () => {
    const slots = counters(4);
    for (const key of ['a', 'b', 'c', 'd']) slots.slot(key);
    slots.slot('a').uses = 1;
    slots.slot('e');
    expect(slots.size).toBe(2);
    expect(slots.peek('b')).toBeUndefined();
  });

  it('waits after a sweep until the slots have doubled before the next', () => {
    const slots = counters(2);
    for (const key of ['a', 'b']) slots.slot(key).uses = 1;
    // The sweep before 'c' finds nothing idle: the next waits for twice the 2 slots it left.
    slots.slot('c').uses = 1;
    slots.slot('d');
    expect(slots.size).toBe(4);
    slots.slot('e');
    expect(slots.peek('d')).toBeUndefined();
    expect(slots.size).toBe(4);
  });

  it('refuses a floor that could not hold one slot', () => {
    expect(() => counters(0)).toThrow(RangeError);
  });
});
