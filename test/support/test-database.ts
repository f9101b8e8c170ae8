import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  const url = databaseUrl(serverUrl, name);
  try {
    const template = await migratedTemplate(admin, serverUrl);
    await admin.em().execute(`create database "${name}" template "${template}"`);
    const db = await openDatabase({ databaseUrl: url, dataDir: ':memory:', logger: silent, timeoutMs: 0 });
    return {
      url,
      db,
      async drop() {
        try {
          const closed = db.close();
          if (!(await settlesWithin(closed, CLOSE_WAIT_MS))) {
            // A connection still out of the pool (a statement that never answers) held close()
            // past the hook's timeout once in CI: say what it was, then end it with the drop.
            console.warn(`test database ${name}: the pool did not close in ${CLOSE_WAIT_MS} ms; still running:`, await activityIn(admin, name));
          }
          // Bounded: dropping waits for a checkpoint and for every backend to let go of the files,
          // which a stalled machine can hold; a leftover test database is only a leftover.
          await admin.em().execute(`set statement_timeout = ${DROP_WAIT_MS}`);
          await admin.em().execute(`drop database if exists "${name}" with (force)`).catch((error: unknown) => {
            console.warn(`test database ${name} was left behind: ${String(error)}`);
          });
          if (!(await settlesWithin(closed, CLOSE_WAIT_MS))) console.warn(`test database ${name}: its pool never closed`);
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

/** How long a test database's pool may take to close before the drop ends its connections. */
const CLOSE_WAIT_MS = 10_000;
/** How long dropping it may take. */
const DROP_WAIT_MS = 20_000;

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = promise.then(
    () => true,
    () => true,
  );
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}

function activityIn(admin: Database, name: string): Promise<unknown> {
  return admin
    .em()
    .execute('select pid, state, wait_event_type, wait_event, now() - query_start as running_for, query from pg_stat_activity where datname = ?', [name])
    .catch((error: unknown) => String(error));
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** An arbitrary constant naming the template's lock among Postgres advisory locks. */
const TEMPLATE_LOCK_KEY = 7_302_118;

/**
 * A database migrated once and copied for every test file (`create database ... template`): a
 * copy takes a fraction of a second where migrating a new one took 2-5 s, a hundred times a run.
 * Named by a hash of the migrations' sources, so a changed migration gets a template of its own;
 * built under an advisory lock (test workers start together) and renamed into place only once
 * migrated, so nobody copies a half-built one. test/db/migrations.test.ts still migrates down and
 * up on its copy, and the template itself is migrated from nothing.
 */
async function migratedTemplate(admin: Database, serverUrl: string): Promise<string> {
  const name = `league_tpl_${await migrationsHash()}`;
  const exists = async () =>
    (await admin.em().execute<Array<{ n: number }>>('select count(*)::int as n from pg_database where datname = ?', [name]))[0].n > 0;
  if (await exists()) return name;
  // The admin connection is a pool of one: the session lock is held by the connection every statement here uses.
  await admin.em().execute('select pg_advisory_lock(?)', [TEMPLATE_LOCK_KEY]);
  try {
    if (await exists()) return name;
    const building = `${name}_${randomBytes(4).toString('hex')}`;
    await admin.em().execute(`create database "${building}"`);
    const db = await openDatabase({ databaseUrl: databaseUrl(serverUrl, building), dataDir: ':memory:', logger: silent, timeoutMs: 0 });
    try {
      await db.migrate();
    } finally {
      await db.close();
    }
    await admin.em().execute(`alter database "${building}" rename to "${name}"`);
  } finally {
    await admin.em().execute('select pg_advisory_unlock(?)', [TEMPLATE_LOCK_KEY]);
  }
  return name;
}

async function migrationsHash(): Promise<string> {
  const folder = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
  const hash = createHash('sha256');
  for (const file of (await readdir(folder)).sort()) hash.update(file).update(await readFile(join(folder, file)));
  return hash.digest('hex').slice(0, 16);
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

/** Empties every table and restarts ids, for tests that count or rank whole tables. */
export async function truncateAll(db: Database): Promise<void> {
  const tables = [...db.orm.getMetadata().getAll().values()].map((meta) => meta.tableName);
  await db.em().execute(`truncate ${tables.map((t) => `"${t}"`).join(', ')} restart identity cascade`);
}
