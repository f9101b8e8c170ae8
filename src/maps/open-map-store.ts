import { join } from 'node:path';
import type { Config } from '../config/config';
import { DirectoryMapStore } from './directory-map-store';
import type { MapStore } from './map-store';

/** The configured map store, and where uploads stream before they are checked. */
export async function openMapStore(config: Pick<Config, 'dataDir' | 'mapStorage'>): Promise<{ store: MapStore; tempDir: string; close(): void }> {
  const root = join(config.dataDir, 'maps');
  // A subdirectory of the directory store's own, so moving a checked upload in is one rename.
  const tempDir = join(root, '.incoming');
  if (config.mapStorage.kind === 's3') {
    // Loaded only when configured: the AWS SDK is several MB of memory a directory store never needs.
    const { S3MapStore } = await import('./s3-map-store');
    const store = new S3MapStore(config.mapStorage);
    return { store, tempDir, close: () => store.close() };
  }
  return { store: await DirectoryMapStore.open(root), tempDir, close: () => undefined };
}
