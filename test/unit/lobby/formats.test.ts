import { describe, expect, it } from 'vitest';
import {
  CLASS_LIMITS, DEFAULT_MAP_POOLS, FORMAT_SLOTS, KNOWN_MAPS, LOBBY_FORMATS, MAP_POOL_MAX, MAP_POOL_MIN, TF_CLASSES,
} from '../../../src/domain/lobby/formats';

describe('formats', () => {
  it('6v6 seats two scouts, two soldiers, a demoman and a medic', () => {
    expect(FORMAT_SLOTS['6v6']).toEqual(['scout', 'scout', 'soldier', 'soldier', 'demoman', 'medic']);
  });

  it('9v9 seats one of each class in the game order', () => {
    expect(FORMAT_SLOTS['9v9']).toEqual(['scout', 'soldier', 'pyro', 'demoman', 'heavy', 'engineer', 'medic', 'sniper', 'spy']);
  });

  it('4v4 seats a scout, a soldier, a demoman and a medic', () => {
    expect(FORMAT_SLOTS['4v4']).toEqual(['scout', 'soldier', 'demoman', 'medic']);
  });

  it('ultiduo seats a soldier and a medic', () => {
    expect(FORMAT_SLOTS.ultiduo).toEqual(['soldier', 'medic']);
  });

  it('6v6 allows two scouts and two soldiers but one of every other class', () => {
    expect(CLASS_LIMITS['6v6']).toEqual({ scout: 2, soldier: 2, pyro: 1, demoman: 1, heavy: 1, engineer: 1, medic: 1, sniper: 1, spy: 1 });
  });

  it.each(['9v9', '4v4'] as const)('%s allows one of every class', (format) => {
    for (const cls of TF_CLASSES) expect(CLASS_LIMITS[format][cls]).toBe(1);
  });

  it('ultiduo allows only one soldier and one medic', () => {
    for (const cls of TF_CLASSES) expect(CLASS_LIMITS.ultiduo[cls]).toBe(cls === 'soldier' || cls === 'medic' ? 1 : 0);
  });

  it.each(LOBBY_FORMATS)('the default slots of %s respect its class limits', (format) => {
    for (const cls of TF_CLASSES) {
      expect(FORMAT_SLOTS[format].filter((c) => c === cls).length).toBeLessThanOrEqual(CLASS_LIMITS[format][cls]);
    }
  });

  it.each(LOBBY_FORMATS)('the default map pool of %s has 2 to 5 distinct maps', (format) => {
    const pool = DEFAULT_MAP_POOLS[format];
    expect(pool.length).toBeGreaterThanOrEqual(MAP_POOL_MIN);
    expect(pool.length).toBeLessThanOrEqual(MAP_POOL_MAX);
    expect(new Set(pool).size).toBe(pool.length);
  });

  it('the known maps are the union of the default pools, each once', () => {
    const union = new Set(Object.values(DEFAULT_MAP_POOLS).flat());
    expect(new Set(KNOWN_MAPS)).toEqual(union);
    expect(KNOWN_MAPS.length).toBe(union.size);
  });
});
