import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { openDatabase } from './orm';

/**
 * A freshly initialised and migrated PGlite data directory, packed once (at `npm install`, by
 * build-pglite-template.ts) and unpacked for every new embedded database. Postgres's initdb and
 * the first migration are most of PGlite's start-up cost (about 6 s here; unpacking takes about
 * 1 s), and they are what keeps a first `npm start` under 5 s. Migrations added later still run
 * at start-up as usual. Versioned by the PGlite release that made it.
 */
const root = packageRoot(dirname(fileURLToPath(import.meta.url)));

/** The directory holding node_modules: two levels up from src/db, three from the compiled dist/src/db. */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', '@electric-sql', 'pglite'))) return dir;
    if (dirname(dir) === dir) return join(from, '..', '..');
  }
}

async function pgliteVersion(): Promise<string> {
  // The package's exports hide package.json, so it is read from disk.
  const manifest = await readFile(join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}

export async function templatePath(): Promise<string> {
  return join(root, 'node_modules', '.cache', 'league-server', `pglite-initdb-${await pgliteVersion()}.tar.gz`);
}

export async function loadTemplate(): Promise<Blob | undefined> {
  try {
    return new Blob([new Uint8Array(await readFile(await templatePath()))]);
  } catch {
    return undefined;
  }
}

export async function buildTemplate(): Promise<string> {
  const db = await openDatabase({ dataDir: ':memory:', logger: pino({ level: 'silent' }), fromTemplate: false, poolSize: 2 });
  try {
    await db.migrate();
    await db.orm.close(true);
    const dump = await db.embedded!.dump();
    const path = await templatePath();
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.${process.pid}.partial`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, path);
    return path;
  } finally {
    await db.close();
  }
}
