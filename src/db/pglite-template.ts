import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { openDatabase, type Database } from './orm';
import { timeColumnsWithRows, type TimeColumns } from './shift-times';
import { sourceDigest } from './source-digest';
import { machineTime } from '../clock/machine-time';

/**
 * Packed embedded databases, built once (at `npm install` and, when missing, before `npm start`,
 * by build-pglite-template.ts) and copied for every new one. Postgres's initdb, the migrations and
 * the demo seed were most of a first start (initdb alone about 6 s); copying a data directory
 * that was shut down cleanly takes a few hundred ms, and opening it skips crash recovery.
 *
 * - 'migrated': initdb and every migration; also packed as a tarball for in-memory databases.
 * - 'demo': the same with the demo league seeded, and the moment it was seeded (SEEDED_AT_FILE),
 *   so the first start moves its times to the present (see shift-times.ts).
 *
 * Each is named by the PGlite release and a digest of the sources that made it (the migrations,
 * and the seed's code for 'demo'): a changed migration or seed is never served from a stale copy,
 * it falls back to running the steps at start-up until the template is rebuilt.
 */
export type TemplateKind = 'migrated' | 'demo';

/** Inside a copied demo data directory until its times were moved (Postgres ignores it): a DemoSeed. */
export const DEMO_SEED_FILE = 'league-demo-seed.json';

export interface DemoSeed {
  /** When the seed ended (ms since the epoch). */
  seededAt: number;
  /** What to move (see shift-times.ts). */
  columns: TimeColumns;
}

const root = packageRoot(dirname(fileURLToPath(import.meta.url)));
const cacheDir = join(root, 'node_modules', '.cache', 'league-server');

/** The directory holding node_modules: two levels up from src/db, three from the compiled dist/src/db. */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', '@electric-sql', 'pglite'))) return dir;
    if (dirname(dir) === dir) return join(from, '..', '..');
  }
}

function pgliteVersion(): string {
  // The package's exports hide package.json, so it is read from disk.
  const manifest = readFileSync(join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}

/** What each kind is built from, as entry points into src/ (the digest follows their imports). */
const SOURCES: Record<TemplateKind, string[]> = {
  migrated: ['db/orm.ts'],
  demo: ['db/orm.ts', 'composition/demo-seed.ts'],
};

/** The template's data directory; undefined without the sources to name it (a build holding only dist/). */
export function templatePath(kind: TemplateKind): string | undefined {
  const sourceRoot = join(root, 'src');
  if (!existsSync(join(sourceRoot, 'db', 'orm.ts'))) return undefined;
  return join(cacheDir, `pglite-${pgliteVersion()}-${kind}-${sourceDigest(sourceRoot, SOURCES[kind])}`);
}

/** The migrated template as a tarball, for an in-memory database (PGlite's loadDataDir). */
export async function loadTemplateTarball(): Promise<Blob | undefined> {
  const path = templatePath('migrated');
  if (!path) return undefined;
  try {
    return new Blob([new Uint8Array(await readFile(`${path}.tar.gz`))]);
  } catch {
    return undefined;
  }
}

/**
 * Copies the first template of `kinds` that is built into `pgliteDir` (which must not exist yet);
 * returns the kind copied. Copied beside and renamed, so an interrupted copy is never taken for a
 * database. Synchronous: nothing else runs while a server starts, and it is faster than the async copy.
 */
export function copyTemplate(kinds: readonly TemplateKind[], pgliteDir: string): TemplateKind | undefined {
  for (const kind of kinds) {
    const path = templatePath(kind);
    if (!path || !existsSync(join(path, 'PG_VERSION'))) continue;
    const partial = `${pgliteDir}.partial`;
    rmSync(partial, { recursive: true, force: true });
    copyTree(path, partial);
    renameSync(partial, pgliteDir);
    return kind;
  }
  return undefined;
}

/** A data directory's files, copied: about twice as fast as fs.cpSync, which checks each path more. */
function copyTree(from: string, to: string): void {
  mkdirSync(to, { mode: 0o700 });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) copyTree(join(from, entry.name), join(to, entry.name));
    else copyFileSync(join(from, entry.name), join(to, entry.name));
  }
}

export function templatesBuilt(): boolean {
  return (['migrated', 'demo'] as const).every((kind) => {
    const path = templatePath(kind);
    return path !== undefined && existsSync(join(path, 'PG_VERSION'));
  });
}

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
    const migratedDir = await buildOne(work, 'migrated', { tarball: `${migrated}.tar.gz` }, (db) => db.migrate());
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
