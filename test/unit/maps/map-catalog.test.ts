import { describe, expect, it } from 'vitest';
import { KNOWN_MAPS } from '../../../src/domain/lobby/formats';
import { builtInMaps, MapCatalog, type MapSource } from '../../../src/maps/map-catalog';

const source = (...names: string[]): MapSource => ({ mapNames: async () => names });

describe('the map catalog', () => {
  it('lists the built-in maps first, then each source’s maps, each name once', async () => {
    const catalog = new MapCatalog([builtInMaps, source('cp_custom_b1', KNOWN_MAPS[0], 'koth_new_rc1')]);
    expect(await catalog.names()).toEqual([...KNOWN_MAPS, 'cp_custom_b1', 'koth_new_rc1']);
  });

  it('asks its sources again on every use, so a removed map stops counting at once', async () => {
    const uploaded = ['cp_custom_b1'];
    const catalog = new MapCatalog([builtInMaps, { mapNames: async () => [...uploaded] }]);
    expect(await catalog.has('cp_custom_b1')).toBe(true);
    uploaded.pop();
    expect(await catalog.has('cp_custom_b1')).toBe(false);
  });
});
