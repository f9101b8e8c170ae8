import type { Config } from '../config/config';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded-postgres';
import { DEFAULT_POOL_SIZE, embeddedConnectionsFor } from '../db/pool-size';
import { acquireSingleInstanceLock } from '../live/single-instance-lock';

/**
 * The stores' first steps, which need none of the server's code: the in-process live store's lock
 * on the data dir, then the embedded database's start (a template copied, PGlite booted). On a
 * newcomer's first start they took about 0.8 s after the 0.9 s of loading the server's modules;
 * begun by the entry (src/start.ts) before that loading, they run beside it (the copy on a worker
 * thread, PGlite's boot between module reads). Imports only what those steps need, so that
 * beginning them costs no module loading of its own.
 */
export interface StoreStart {
  /** The data dir's lock, held, for the in-process live store (none with Redis). */
  lock?: Promise<() => Promise<void>>;
  /** The embedded database, started (none with DATABASE_URL). */
  embedded?: Promise<EmbeddedPostgres>;
  /** Undoes what was begun, for a start that fails before the stores own it. */
  abandon(): Promise<void>;
}

export function beginStoreStart(config: Pick<Config, 'redisUrl' | 'databaseUrl' | 'dataDir' | 'seedDemoData'>, clock: () => number): StoreStart {
  // The embedded database waits for the lock: two servers on one data dir must not both open it.
  const lock = config.redisUrl ? undefined : acquireSingleInstanceLock(config.dataDir);
  const embedded = config.databaseUrl
    ? undefined
    : (lock ?? Promise.resolve()).then(() =>
        startEmbeddedPostgres({
          dataDir: config.dataDir,
          maxConnections: embeddedConnectionsFor(DEFAULT_POOL_SIZE),
          // A newcomer's embedded database comes seeded (its times moved to now) when the seed is wanted.
          startFrom: config.seedDemoData ? 'demo' : 'migrated',
          clock,
        }),
      );
  // Awaited by openStores, maybe after other steps failed: a refusal here is not unhandled meanwhile.
  lock?.catch(() => undefined);
  embedded?.catch(() => undefined);
  return {
    lock,
    embedded,
    async abandon() {
      // Either may have been closed already by the step that failed.
      await embedded?.then((database) => database.close()).catch(() => undefined);
      await lock?.then((release) => release()).catch(() => undefined);
    },
  };
}
