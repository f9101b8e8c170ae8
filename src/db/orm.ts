import { DatabaseBreaker, type Pool } from './database-breaker';
import { Migrator } from '@mikro-orm/migrations';
import { DefaultLogger, MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { QueryTimingLogger, type QueryObserver } from '../observability/query-timing-logger';
import type { Logger } from 'pino';
import { startEmbeddedPostgres, type EmbeddedPostgres, type StartFrom } from './embedded-postgres';
import { DEFAULT_POOL_SIZE, embeddedConnectionsFor } from './pool-size';
import { entities } from './entities';
import { migrations } from './migrations';

export type { EntityManager } from '@mikro-orm/postgresql';
export type DbLogger = Pick<Logger, 'info' | 'warn' | 'debug'>;

export interface Database {
  orm: MikroORM;
  /**
   * A fresh fork: one per unit of work (request, command, job). Inside `transactional`, query only
   * through the transaction's em: embedded PGlite is one backend, so a query on another connection
   * waits for the open transaction to end, and awaiting it from inside that transaction never returns.
   */
  em(): EntityManager;
  /** Applies every pending migration. */
  migrate(): Promise<void>;
  /** Closes the ORM, then the embedded server if there is one. */
  close(): Promise<void>;
  kind: 'postgres' | 'embedded';
  /** The embedded server, when there is one. */
  embedded?: EmbeddedPostgres;
  /** True when a trivial query round-trips. */
  ping(): Promise<boolean>;
  /**
   * True when the server could serve from this database now: it answers, every migration this
   * build knows is recorded, and every entity's table exists (a database emptied under a running
   * server is not ready, though it answers). The caller bounds the wait.
   */
  ready(): Promise<boolean>;
}

/** What a repository needs: a way to get a fresh EntityManager (a Database, or a test's stand-in). */
export type EmSource = Pick<Database, 'em'>;

export interface OpenDatabaseOptions {
  /** Postgres connection string; unset means embedded PGlite. */
  databaseUrl?: string;
  /** Embedded data lives in `<dataDir>/pglite`; ':memory:' keeps nothing. */
  dataDir: string;
  logger: DbLogger;
  /** Connection pool size (default 10). */
  poolSize?: number;
  /** Embedded only: what a new data directory starts from (see StartFrom; default 'migrated'). */
  template?: StartFrom;
  /** Embedded only: the present, for the demo template's times (default Date.now). */
  clock?: () => number;
  /** Embedded only: the embedded server, started already (see StoreStart); closing the database closes it. */
  embedded?: EmbeddedPostgres;
  /**
   * Bound on getting a connection, on one statement and on a transaction's idle gaps, and half
   * the deadline of one transaction (default 3000 ms for a server, 30 s for embedded PGlite): a database that stops answering fails requests (503) in this time instead
   * of holding them. 0: no bound (tools and test set-up, which may drop a database under load).
   */
  timeoutMs?: number;
  /** Told of every statement run, with its duration and whether it failed (the metrics). */
  onQuery?: QueryObserver;
}

/**
 * The bound on one database call (see OpenDatabaseOptions.timeoutMs) when none is configured.
 * Embedded PGlite lives in this process and cannot go silent on its own; one WASM Postgres
 * serves the whole pool serially, so a burst queues for connections longer than a server would.
 */
export function databaseTimeoutMs(options: Pick<OpenDatabaseOptions, 'timeoutMs' | 'databaseUrl'>): number {
  return options.timeoutMs ?? (options.databaseUrl ? 3000 : 30_000);
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
  const timeoutMs = databaseTimeoutMs(options);
  const embedded = options.databaseUrl
    ? undefined
    : (options.embedded ??
      (await startEmbeddedPostgres({ dataDir: options.dataDir, maxConnections: embeddedConnectionsFor(poolSize), startFrom: options.template, clock: options.clock })));
  const url = options.databaseUrl ?? embedded!.url;
  const breaker = timeoutMs > 0 ? new DatabaseBreaker(2 * timeoutMs) : undefined;
  try {
    const orm = await MikroORM.init({
      clientUrl: url,
      entities: [...entities],
      extensions: [Migrator],
      migrations: { migrationsList: migrations, snapshot: false, snapshotOnMigrate: false, silent: true },
      pool: { min: 0, max: poolSize },
      // Waiting for a pooled connection, opening one, and each statement: server-side (the server
      // cancels it) and client-side (a server that went silent cannot cancel anything).
      ...(timeoutMs > 0
        ? {
            driverOptions: {
              connectionTimeoutMillis: timeoutMs, statement_timeout: timeoutMs, query_timeout: timeoutMs + 500,
              // A transaction left open by a stalled client holds its locks no longer than one bound.
              idle_in_transaction_session_timeout: timeoutMs,
              // After one call met a silent database, the next fail at once; and a transaction as
              // a whole gets two bounds (see DatabaseBreaker).
              onPoolCreated: (pool: Pool) => breaker!.attach(pool),
            },
          }
        : {}),
      allowGlobalContext: false,
      debug: false,
      logger: (message) => options.logger.debug({ orm: message }, 'orm'),
      ...(options.onQuery ? { loggerFactory: (loggerOptions) => new QueryTimingLogger(DefaultLogger.create(loggerOptions), options.onQuery!) } : {}),
    });
    return databaseOver(orm, embedded, options.logger, breaker);
  } catch (error) {
    await embedded?.close();
    throw error;
  }
}

/** An arbitrary constant naming the migration lock among Postgres advisory locks. */
const MIGRATION_LOCK_KEY = 7_302_117;

function databaseOver(orm: MikroORM, embedded: EmbeddedPostgres | undefined, logger: DbLogger, breaker: DatabaseBreaker | undefined): Database {
  let closed = false;
  return {
    orm,
    kind: embedded ? 'embedded' : 'postgres',
    embedded,
    em: () => orm.em.fork(),
    async migrate() {
      // Server instances starting together take turns: the second finds nothing pending. PGlite is
      // one backend, whether embedded here or reached over its socket by URL (tests): the
      // migrator's own queries outside the locking transaction would wait on it forever, and one
      // backend cannot race itself anyway, so it runs without the lock.
      const singleBackend = embedded !== undefined || (await isPglite(orm));
      const run = async () =>
        singleBackend
          ? await orm.migrator.up()
          : (await orm.migrator.getPending()).length === 0
            ? []
            : await orm.em.fork().transactional(async (em) => {
                await em.execute('select pg_advisory_xact_lock(?)', [MIGRATION_LOCK_KEY]);
                return orm.migrator.up({ transaction: em.getTransactionContext() });
              });
      const applied = breaker ? await breaker.withoutTransactionDeadline(run) : await run();
      if (applied.length > 0) logger.info({ migrations: applied.map((m) => m.name) }, 'database migrated');
    },
    async ping() {
      try {
        await orm.em.fork().execute('select 1');
        return true;
      } catch {
        return false;
      }
    },
    async ready() {
      try {
        const entities = [...orm.getMetadata().getAll().values()].filter((meta) => !meta.embeddable && !meta.virtual && meta.tableName);
        const tables = [...entities.map((meta) => meta.tableName), 'mikro_orm_migrations'];
        const [row] = await orm.em.fork().execute<{ missing: number; applied: number }[]>(
          `select (select count(*) from unnest(string_to_array(?, ',')) as t(name) where to_regclass(t.name) is null)::int as missing,
                  (select count(*) from mikro_orm_migrations where name = any(string_to_array(?, ',')))::int as applied`,
          [tables.join(','), migrations.map((m) => m.name).join(',')],
        );
        return row.missing === 0 && row.applied === migrations.length;
      } catch {
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await orm.close(true);
      } finally {
        await embedded?.close();
      }
    },
  };
}

async function isPglite(orm: MikroORM): Promise<boolean> {
  const [row] = await orm.em.fork().execute<{ version: string }[]>('select version() as version');
  return row.version.includes('PGlite');
}
