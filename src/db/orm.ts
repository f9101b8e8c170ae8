import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { entities } from './entities';
import { migrations } from './migrations';

export type { EntityManager } from '@mikro-orm/postgresql';
export type DbLogger = Pick<Logger, 'info' | 'warn' | 'debug'>;

export interface Database {
  orm: MikroORM;
  /** A fresh fork: one per unit of work (request, command, job). */
  em(): EntityManager;
  /** Applies every pending migration. */
  migrate(): Promise<void>;
  /** Closes the ORM, then the embedded server if there is one. */
  close(): Promise<void>;
  kind: 'postgres' | 'embedded';
  /** True when a trivial query round-trips. */
  ping(): Promise<boolean>;
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
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const poolSize = options.poolSize ?? 10;
  const embedded = options.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({ dataDir: options.dataDir, maxConnections: poolSize * 2 });
  const url = options.databaseUrl ?? embedded!.url;
  try {
    const orm = await MikroORM.init({
      clientUrl: url,
      entities: [...entities],
      extensions: [Migrator],
      migrations: { migrationsList: migrations, snapshot: false, snapshotOnMigrate: false, silent: true },
      pool: { min: 0, max: poolSize },
      allowGlobalContext: false,
      debug: false,
      logger: (message) => options.logger.debug({ orm: message }, 'orm'),
    });
    return databaseOver(orm, embedded, options.logger);
  } catch (error) {
    await embedded?.close();
    throw error;
  }
}

function databaseOver(orm: MikroORM, embedded: EmbeddedPostgres | undefined, logger: DbLogger): Database {
  let closed = false;
  return {
    orm,
    kind: embedded ? 'embedded' : 'postgres',
    em: () => orm.em.fork(),
    async migrate() {
      const applied = await orm.migrator.up();
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
