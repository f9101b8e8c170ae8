import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { MapStore } from './map-store';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Maps as files in one directory (DATA_DIR/maps by default). The temporary upload lives in a
 * subdirectory of the same file system, so `put` is one atomic rename: a file under its final
 * name is always whole.
 */
export class DirectoryMapStore implements MapStore {
  readonly kind = 'directory';

  private constructor(private readonly root: string) {}

  static async open(root: string): Promise<DirectoryMapStore> {
    await mkdir(root, { recursive: true });
    return new DirectoryMapStore(root);
  }

  private path(key: string): string {
    if (!/^[\w.-]+$/.test(key) || key.startsWith('.')) throw new Error(`not a map store key: ${key}`);
    return join(this.root, key);
  }

  async put(key: string, tempPath: string): Promise<void> {
    try {
      await rename(tempPath, this.path(key));
    } catch (error) {
      await unlink(tempPath).catch(() => undefined);
      throw error;
    }
  }

  async get(key: string): Promise<Readable | null> {
    const path = this.path(key);
    if ((await this.size(key)) === null) return null;
    return createReadStream(path);
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.path(key))).size;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}
