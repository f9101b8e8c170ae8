import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectoryMapStore } from '../../src/maps/directory-map-store';
import { mapStoreContract } from './map-store.contract';

mapStoreContract('DirectoryMapStore', async () => {
  const root = await mkdtemp(join(tmpdir(), 'map-store-dir-'));
  const tempDir = join(root, 'maps', '.incoming');
  await mkdir(tempDir, { recursive: true });
  return {
    store: await DirectoryMapStore.open(join(root, 'maps')),
    tempDir,
    close: () => rm(root, { recursive: true, force: true }),
  };
});
