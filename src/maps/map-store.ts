import type { Readable } from 'node:stream';

/**
 * Where the bytes of active maps live (a directory under DATA_DIR/maps, or an S3-compatible
 * bucket). An upload streams into a local temporary file first; only a checked file is handed
 * here, so a store never holds a partial or unchecked map. Keys are `<id>-<name>.bsp`: a name
 * deleted and uploaded again gets a new key, so a late delete of the old file cannot remove the
 * new one. Every implementation passes test/contract/map-store.contract.ts.
 */
export interface MapStore {
  readonly kind: 'directory' | 's3';
  /** Takes over a finished temporary file (size known) under `key`; the temporary file is gone afterwards. */
  put(key: string, tempPath: string, sizeBytes: number): Promise<void>;
  /** The stored bytes, or null when nothing is stored under `key`. */
  get(key: string): Promise<Readable | null>;
  /** The stored size, or null when nothing is stored under `key`. */
  size(key: string): Promise<number | null>;
  /** Removes the bytes under `key`; removing what is not there is not an error. */
  delete(key: string): Promise<void>;
}

export const mapStoreKey = (map: { id: number; name: string }): string => `${map.id}-${map.name}.bsp`;
