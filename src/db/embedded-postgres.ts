import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { ProtocolUnitQueue } from './pglite-protocol-queue';
import { loadTemplate } from './pglite-template';

export interface EmbeddedPostgres {
  /** A postgres:// URL for the ordinary driver. */
  url: string;
  /** Stops the socket server, then PGlite. Close every client first. */
  close(): Promise<void>;
  /** The whole data directory, gzipped (see pglite-template.ts). */
  dump(): Promise<Blob>;
}

/**
 * Real Postgres compiled to WASM, served over the wire protocol on 127.0.0.1 and an ephemeral port,
 * so the ORM uses its normal driver. dataDir ':memory:' keeps nothing on disk.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  maxConnections: number;
  /** Start a fresh data directory from the packed template (default), or by initdb. */
  fromTemplate?: boolean;
}): Promise<EmbeddedPostgres> {
  const inMemory = options.dataDir === ':memory:';
  const pgliteDir = inMemory ? undefined : join(options.dataDir, 'pglite');
  if (pgliteDir) await mkdir(pgliteDir, { recursive: true });
  const fresh = !pgliteDir || !(await exists(join(pgliteDir, 'PG_VERSION')));
  const template = fresh && options.fromTemplate !== false ? await loadTemplate() : undefined;
  const pglite = await PGlite.create({ ...(pgliteDir ? { dataDir: pgliteDir } : {}), ...(template ? { loadDataDir: template } : {}) });
  try {
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

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
