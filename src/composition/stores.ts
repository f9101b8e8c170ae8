import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { openDatabase, type Database } from '../db/orm';
import type { LiveStore } from '../live/live-store';
import { openLiveStore } from '../live/open-live-store';
import type { QueryObserver } from '../observability/query-timing-logger';
import type { Parts } from './parts';
import { beginStoreStart, type StoreStart } from './store-start';
import { createRepositories, type Repositories } from './repositories';

export interface Stores {
  live: LiveStore;
  db: Database;
  repos: Repositories;
  /** The empty database was filled with demo data at this start (SEED_DEMO_DATA). */
  seeded: boolean;
}

/** The live store and the database, migrated (and seeded when empty and configured), with their repositories. */
export async function openStores(input: {
  config: Config;
  logger: Logger;
  clock: () => number;
  parts: Parts;
  observeLive: (live: LiveStore) => LiveStore;
  onQuery: QueryObserver;
  /** The stores' first steps, begun by the entry while the modules loaded (begun here otherwise). */
  begun?: StoreStart;
}): Promise<Stores> {
  const { config, logger, parts } = input;
  const begun = input.begun ?? beginStoreStart(config, input.clock);
  const dbStarted = performance.now();
  let live: LiveStore;
  let db: Database;
  try {
    live = parts.own(input.observeLive(await openLiveStore({
      redisUrl: config.redisUrl,
      redisPrefix: config.redisPrefix,
      dataDir: config.dataDir,
      commandTimeoutMs: config.redisTimeoutMs,
      onError: (error) => logger.error({ err: error }, 'live store error'),
      lock: begun.lock,
    })));
    db = parts.own(await openDatabase({
      databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger, timeoutMs: config.databaseTimeoutMs, onQuery: input.onQuery,
      embedded: await begun.embedded,
    }));
  } catch (error) {
    // What the parts own they close; the rest of what was begun is undone here.
    await begun.abandon();
    throw error;
  }
  const dbOpened = performance.now();
  await db.migrate();
  const migrated = performance.now();
  const repos = createRepositories(db);
  // The seed's code (and the forum's markdown renderer it writes through) is loaded only to seed.
  const seeded = config.seedDemoData && (db.embedded?.demoSeeded === true || (await (await import('./demo-seed')).seedDemoIfEmpty(db, new Date(input.clock()), repos)));
  logger.info(
    { kind: db.kind, openMs: Math.round(dbOpened - dbStarted), ...db.embedded?.startup, migrateMs: Math.round(migrated - dbOpened), seedMs: seeded ? Math.round(performance.now() - migrated) : 0 },
    seeded ? 'database ready; empty database seeded with demo data' : 'database ready',
  );
  return { live, db, repos, seeded };
}
