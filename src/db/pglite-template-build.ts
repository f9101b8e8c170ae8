import { cpSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { machineTime } from '../clock/machine-time';
import { openDatabase, type Database } from './orm';
import { cacheDir, DEMO_SEED_FILE, templatePath, type DemoSeed } from './pglite-template';
import { timeColumnsWithRows } from './shift-times';

/*
 * Building the templates pglite-template.ts serves. Apart from it because building needs the ORM
 * and serving must not: a server's entry copies a template before the ORM's modules are loaded.
 */

/**
 * Builds both templates: initdb and migrations, then the demo seed on a copy. `seed` is the
 * demo seed's composition (src/composition/demo-seed.ts), handed in so the database layer does
 * not import it.
 */
export async function buildTemplates(seed: (db: Database, now: Date) => Promise<void>): Promise<string[]> {
  const migrated = templatePath('migrated');
  const demo = templatePath('demo');
  if (!migrated || !demo) throw new Error('no sources to name the templates by (src/ is missing)');
  await mkdir(cacheDir, { recursive: true });
  const work = await mkdtemp(join(cacheDir, 'building-'));
  try {
    const migratedDir = await buildOne(work, 'migrated', { tarball: `${migrated}.tar.gz` }, async (db) => {
      await db.migrate();
      await dropTemplateDatabases(db);
    });
    install(migratedDir, migrated);
    cpSync(migrated, join(work, 'demo', 'pglite'), { recursive: true });
    let demoSeed: DemoSeed | undefined;
    const demoDir = await buildOne(work, 'demo', {}, async (db) => {
      await db.migrate();
      // Built at install, not by a running league: the machine's time, which a first start later moves to its own.
      await seed(db, new Date(machineTime.wall()));
      // Times the database wrote itself (column defaults) fall between the seed's `now` and
      // here: moved by (first start - this), none of them lands in the future.
      const seededAt = machineTime.wall();
      demoSeed = { seededAt, columns: await timeColumnsWithRows(db) };
    });
    writeFileSync(join(demoDir, DEMO_SEED_FILE), JSON.stringify(demoSeed));
    install(demoDir, demo);
    removeStale([migrated, `${migrated}.tar.gz`, demo]);
    return [migrated, demo];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function buildOne(work: string, name: string, options: { tarball?: string }, fill: (db: Database) => Promise<void>): Promise<string> {
  const dataDir = join(work, name);
  const db = await openDatabase({ dataDir, logger: pino({ level: 'silent' }), template: 'none', poolSize: 2, timeoutMs: 0 });
  try {
    await fill(db);
    await db.orm.close(true);
    if (options.tarball) {
      const dump = await db.embedded!.dump();
      await writeFile(`${options.tarball}.${process.pid}.partial`, Buffer.from(await dump.arrayBuffer()));
      renameSync(`${options.tarball}.${process.pid}.partial`, options.tarball);
    }
  } finally {
    // Closing PGlite shuts Postgres down cleanly: a copy opens without crash recovery.
    await db.close();
  }
  return join(dataDir, 'pglite');
}

/**
 * initdb's template0 and template1 were 14 MB and 570 files of every copy a first start makes
 * (42 MB and 1,255 files before; a file created costs about 1 ms of kernel time on this project's
 * machines). The embedded database is one database, `postgres`, and nothing creates another in it.
 */
async function dropTemplateDatabases(db: Database): Promise<void> {
  for (const name of ['template0', 'template1']) {
    await db.em().execute(`alter database ${name} is_template false`);
    await db.em().execute(`drop database ${name}`);
  }
}

function install(built: string, path: string): void {
  rmSync(path, { recursive: true, force: true });
  renameSync(built, path);
}

/** Templates of other PGlite releases or sources: each is tens of MB. */
function removeStale(current: string[]): void {
  for (const entry of readdirSync(cacheDir)) {
    const path = join(cacheDir, entry);
    if (entry.startsWith('pglite-') && !current.includes(path)) rmSync(path, { recursive: true, force: true });
  }
}
