import { existsSync, readFileSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TimeColumns } from './shift-times';
import { sourceDigest } from './source-digest';

/**
 * Packed embedded databases, built once (at `npm install` and, when missing, before `npm start`,
 * by build-pglite-template.ts, through pglite-template-build.ts) and copied for every new one. Postgres's initdb, the migrations and
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
/** Where the templates are kept (built by pglite-template-build.ts). */
export const cacheDir = join(root, 'node_modules', '.cache', 'league-server');

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
  migrated: ['db/pglite-template-build.ts'],
  demo: ['db/pglite-template-build.ts', 'composition/demo-seed.ts'],
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
 * database. On a thread of its own: the entry begins this while the server's modules load (see
 * StoreStart); a copy on the main thread held that loading up for its whole length, and one on
 * libuv's pool queued the loader's file reads behind a thousand copies.
 */
export async function copyTemplate(kinds: readonly TemplateKind[], pgliteDir: string): Promise<TemplateKind | undefined> {
  for (const kind of kinds) {
    const path = templatePath(kind);
    if (!path || !existsSync(join(path, 'PG_VERSION'))) continue;
    const partial = `${pgliteDir}.partial`;
    await rm(partial, { recursive: true, force: true });
    await onItsOwnThread(COPY_TREE, { from: path, to: partial });
    await rename(partial, pgliteDir);
    return kind;
  }
  return undefined;
}

/** A data directory's files, copied synchronously: about twice as fast as fs.cpSync, which checks each path more. */
const COPY_TREE = `
const { copyFileSync, mkdirSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const copyTree = (from, to) => {
  mkdirSync(to, { mode: 0o700 });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) copyTree(join(from, entry.name), join(to, entry.name));
    else copyFileSync(join(from, entry.name), join(to, entry.name));
  }
};
const { from, to } = require('node:worker_threads').workerData;
copyTree(from, to);
`;

function onItsOwnThread(source: string, workerData: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`template copy exited with ${code}`))));
  });
}

export function templatesBuilt(): boolean {
  return (['migrated', 'demo'] as const).every((kind) => {
    const path = templatePath(kind);
    return path !== undefined && existsSync(join(path, 'PG_VERSION'));
  });
}
