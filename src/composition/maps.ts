import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { builtInMaps, MapCatalog } from '../maps/map-catalog';
import { MapLibrary } from '../maps/map-library';
import { openMapStore } from '../maps/open-map-store';
import { UploadTempFiles } from '../maps/upload-temp-files';
import type { Repositories } from './repositories';

export interface MapsArea {
  library: MapLibrary;
  /** Built-in maps and the uploaded library: what lobbies and reservations may use. */
  catalog: MapCatalog;
  /** Uploads cut short by the shutdown are rejected, not left processing; call before the database closes. */
  close(): Promise<void>;
}

/** The map store (a directory, or S3 when configured, loaded only then) and the upload library. */
export async function assembleMaps(input: { config: Config; repos: Pick<Repositories, 'maps' | 'premium'>; clock: () => number; logger: Logger }): Promise<MapsArea> {
  const storage = await openMapStore(input.config);
  const library = new MapLibrary({
    repo: input.repos.maps,
    store: storage.store,
    temps: new UploadTempFiles(storage.tempDir),
    premium: input.repos.premium,
    clock: input.clock,
    logger: input.logger,
  });
  await library.start();
  return {
    library,
    catalog: new MapCatalog([builtInMaps, library]),
    async close() {
      await library.close();
      storage.close();
    },
  };
}
