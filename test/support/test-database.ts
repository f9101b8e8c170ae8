import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { openDatabase, type Database } from '../../src/db/orm';

export interface TestDatabase {
  url: string;
  db: Database;
  /** Closes the database and, on a real server, drops it. */
  drop(): Promise<void>;
}

const silent = pino({ level: 'silent' });

/**
 * A migrated, empty database for one test file. With DATABASE_URL: a uniquely named database on
 * that server, dropped afterwards. Without: in-memory PGlite (about 3 s to start, so one per file).
 * An unreachable DATABASE_URL fails under CI and falls back to PGlite, with a warning, elsewhere.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const onServer = await createOnServer(serverUrl);
    if (onServer) return onServer;
    if (process.env.CI) throw new Error(`DATABASE_URL is set but ${redact(serverUrl)} is unreachable`);
    console.warn(`DATABASE_URL ${redact(serverUrl)} is unreachable; using embedded PGlite instead`);
  }
  const db = await openDatabase({ dataDir: ':memory:', logger: silent });
  await db.migrate();
  return { url: db.orm.config.get('clientUrl')!, db, drop: () => db.close() };
}

async function createOnServer(serverUrl: string): Promise<TestDatabase | null> {
  // Creating and dropping databases is slow on a busy machine: the admin connection is not held to request time.
  const admin = await openDatabase({ databaseUrl: serverUrl, dataDir: ':memory:', logger: silent, poolSize: 1, timeoutMs: 120_000 }).catch(
    () => null,
  );
  if (!admin || !(await admin.ping())) {
    await admin?.close();
    return null;
  }
  const name = `league_t_${randomBytes(6).toString('hex')}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    await admin.em().execute(`create database "${name}"`);
    const db = await openDatabase({ databaseUrl: url.toString(), dataDir: ':memory:', logger: silent, timeoutMs: 0 });
    await db.migrate();
    return {
      url: url.toString(),
      db,
      async drop() {
        try {
          await db.close();
          await admin.em().execute(`drop database if exists "${name}" with (force)`);
        } finally {
          await admin.close();
        }
      },
    };
  } catch (error) {
    await admin.em().execute(`drop database if exists "${name}" with (force)`).catch(() => undefined);
    await admin.close();
    throw error;
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

/** Empties every table and restarts ids, for tests that count or rank whole tables. */
export async function truncateAll(db: Database): Promise<void> {
  const tables = [...db.orm.getMetadata().getAll().values()].map((meta) => meta.tableName);
  await db.em().execute(`truncate ${tables.map((t) => `"${t}"`).join(', ')} restart identity cascade`);
}
