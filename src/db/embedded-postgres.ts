import { machineTime } from '../clock/machine-time';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { ProtocolUnitQueue } from './pglite-protocol-queue';
import { copyTemplate, loadTemplateTarball, DEMO_SEED_FILE, type DemoSeed, type TemplateKind } from './pglite-template';
import { shiftTimesSql } from './shift-times';

export interface EmbeddedPostgres {
  /** A postgres:// URL for the ordinary driver. */
  url: string;
  /** Stops the socket server, then PGlite. Close every client first. */
  close(): Promise<void>;
  /** The whole data directory, gzipped (see pglite-template.ts). */
  dump(): Promise<Blob>;
  /** This start made the data directory from the demo template: the demo league is there, its times moved to now. */
  demoSeeded: boolean;
  /** Where this start's time went (ms): copying a template, PGlite's start, moving the demo's times. */
  startup: { copyMs: number; pgliteMs: number; shiftMs: number };
}

/**
 * What a new data directory starts from: 'demo' (the demo league, else as 'migrated'), 'migrated'
 * (an empty league; migrations added since still run as usual), or 'none' (initdb, building them).
 */
export type StartFrom = TemplateKind | 'none';

/**
 * Postgres's buffer pool lives in the WASM memory and is touched whole at start: the default
 * 128MB was most of an idle server's resident memory (333 MB for PGlite alone, 187 MB with 16MB;
 * 8MB took about 5 MB more off an idle server, 1MB another 8 MB). The embedded database is a
 * newcomer's league of a few MB that PGlite's own file system serves from the page cache anyway:
 * inserts, point reads and scans of every table took the same time with 1MB as with 8MB (within
 * 10%, run to run). A larger league belongs on a server.
 */
const SHARED_BUFFERS = '1MB';

/**
 * The WAL segment size initdb gives a new data directory (the templates'): with the default 16 MB
 * a first start copied a 16 MB segment it had barely begun. With 1 MB segments a build keeps
 * only a few (min_wal_size and max_wal_size kept small while building: a segment recycled for
 * later is a file every first start copies).
 */
const WAL_SEGMENT_MB = 1;

/**
 * V8 compiles WASM functions quickly on first call (Liftoff) and again, optimised (TurboFan), once
 * they have run a while. Starting Postgres runs most of its code enough for that: the optimised
 * copies were 45-70 MB of an idle server's resident memory, and their compiling a second of a first
 * start on a busy 2-core machine. Without them a query costs about 1.5-2 times as long once warm
 * (faster before), which a newcomer's league does not notice; a busy league belongs on a server.
 * Process-wide and read when a module is compiled: set before PGlite compiles its own, and only
 * WASM is affected (none other runs in the server).
 */
function withoutOptimisedWasm(): void {
  setFlagsFromString('--liftoff-only');
}

/**
 * Real Postgres compiled to WASM, served over the wire protocol on 127.0.0.1 and an ephemeral port,
 * so the ORM uses its normal driver. dataDir ':memory:' keeps nothing on disk.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  maxConnections: number;
  /** A new data directory's start (default 'migrated'; in memory, 'migrated' or 'none'). */
  startFrom?: StartFrom;
  /** The present, for the demo template's times (default the machine time). */
  clock?: () => number;
}): Promise<EmbeddedPostgres> {
  const startFrom = options.startFrom ?? 'migrated';
  const started = performance.now();
  const inMemory = options.dataDir === ':memory:';
  const pgliteDir = inMemory ? undefined : join(options.dataDir, 'pglite');
  if (pgliteDir && isEmptyOrMissing(pgliteDir) && startFrom !== 'none') {
    rmSync(pgliteDir, { recursive: true, force: true });
    await mkdir(dirname(pgliteDir), { recursive: true });
    await copyTemplate(startFrom === 'demo' ? ['demo', 'migrated'] : ['migrated'], pgliteDir);
  }
  if (pgliteDir) await mkdir(pgliteDir, { recursive: true });
  const copied = performance.now();
  const tarball = inMemory && startFrom !== 'none' ? await loadTemplateTarball() : undefined;
  withoutOptimisedWasm();
  const pglite = await PGlite.create({
    ...(pgliteDir ? { dataDir: pgliteDir } : {}),
    ...(tarball ? { loadDataDir: tarball } : {}),
    initDbStartParams: [`--wal-segsize=${WAL_SEGMENT_MB}`],
    startParams: [
      ...PGlite.defaultStartParams,
      '-c',
      `shared_buffers=${SHARED_BUFFERS}`,
      // Only where initdb runs or a template is built: a data directory made before WAL_SEGMENT_MB
      // (16 MB segments) refuses to start with min_wal_size under two of its segments.
      ...(startFrom === 'none' ? ['-c', `min_wal_size=${2 * WAL_SEGMENT_MB}MB`, '-c', `max_wal_size=${4 * WAL_SEGMENT_MB}MB`] : []),
    ],
  });
  const opened = performance.now();
  try {
    // Checked on every start, not only after a copy: a start that stopped before moving them still owes it.
    const demoSeed = pgliteDir ? demoSeedIn(pgliteDir) : undefined;
    if (demoSeed) {
      await pglite.exec(shiftTimesSql(demoSeed.columns, Math.round((options.clock ?? machineTime.wall)() - demoSeed.seededAt)));
      rmSync(join(pgliteDir!, DEMO_SEED_FILE));
    }
    const startup = { copyMs: Math.round(copied - started), pgliteMs: Math.round(opened - copied), shiftMs: Math.round(performance.now() - opened) };
    const server = new PGLiteSocketServer({
      db: pglite,
      host: '127.0.0.1',
      port: 0,
      maxConnections: options.maxConnections,
    });
    installProtocolUnitQueue(server, pglite);
    await server.start();
    return {
      url: `postgres://postgres@${server.getServerConn()}/postgres`,
      async close() {
        await server.stop();
        await pglite.close();
      },
      dump: () => pglite.dumpDataDir('gzip'),
      demoSeeded: demoSeed !== undefined,
      startup,
    };
  } catch (error) {
    await pglite.close();
    throw error;
  }
}

/** See ProtocolUnitQueue for why the stock queue cannot serve a connection pool. */
function installProtocolUnitQueue(server: PGLiteSocketServer, pglite: PGlite): void {
  const internals = server as unknown as { queryQueue?: { enqueue?: unknown } };
  if (typeof internals.queryQueue?.enqueue !== 'function') {
    throw new Error('@electric-sql/pglite-socket no longer has the queryQueue this server replaces; pin 0.2.17');
  }
  internals.queryQueue = new ProtocolUnitQueue(pglite);
}

function isEmptyOrMissing(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

function demoSeedIn(pgliteDir: string): DemoSeed | undefined {
  const path = join(pgliteDir, DEMO_SEED_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as DemoSeed) : undefined;
}
