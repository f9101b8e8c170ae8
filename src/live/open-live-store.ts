import type { LiveStore } from './live-store';
import { MemoryLiveStore } from './memory-live-store';
import { acquireSingleInstanceLock } from './single-instance-lock';

export interface OpenLiveStoreOptions {
  /** Set: the shared Redis store. Unset: the in-process store, locked to this data dir. */
  redisUrl?: string;
  dataDir: string;
  redisPrefix?: string;
  /** Redis only: how long one call may wait before it fails with LiveStoreUnavailable. */
  commandTimeoutMs?: number;
  onError?: (error: unknown) => void;
  /** In-process only: the data dir's lock, taken already (see StoreStart); taken here otherwise. */
  lock?: Promise<() => Promise<void>>;
}

/** The live store the configuration asks for; closing it releases what opening it took. */
export async function openLiveStore(options: OpenLiveStoreOptions): Promise<LiveStore> {
  if (options.redisUrl) {
    // Loaded only when configured: the Redis client is a second of start-up and megabytes of memory the embedded default never uses.
    const { connectRedisLiveStore } = await import('./redis-live-store');
    return connectRedisLiveStore({ url: options.redisUrl, prefix: options.redisPrefix, commandTimeoutMs: options.commandTimeoutMs, onError: options.onError });
  }
  const release = await (options.lock ?? acquireSingleInstanceLock(options.dataDir));
  return new MemoryLiveStore({ onClose: release });
}
