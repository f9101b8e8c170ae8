import { KNOWN_MAPS } from '../domain/lobby/formats';

/** One place valid map names come from: the built-in competitive pool, uploaded maps, ... */
export interface MapSource {
  mapNames(): Promise<readonly string[]>;
}

/** The maps every format offers by default: always valid, with or without uploads. */
export const builtInMaps: MapSource = { mapNames: async () => KNOWN_MAPS };

/**
 * The maps valid for provisioning a server and for a lobby's map pool: the union of its
 * sources, built-in first, in the order each source lists them. Asked on every use, so a map
 * that is uploaded or deleted counts (or stops counting) at once on every instance.
 */
export class MapCatalog {
  constructor(private readonly sources: readonly MapSource[]) {}

  async names(): Promise<string[]> {
    const lists = await Promise.all(this.sources.map((source) => source.mapNames()));
    return [...new Set(lists.flat())];
  }

  async has(name: string): Promise<boolean> {
    return (await this.names()).includes(name);
  }
}
