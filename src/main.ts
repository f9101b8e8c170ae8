import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import { installBodySizeGuard } from '../rest/body-size-guard';
import { mountRestApp } from '../rest/rest-app';
import { docsRouter } from '../rest/routes/docs-routes';
import { opsRouter } from '../rest/routes/ops-routes';
import { identityRouters } from '../rest/routes/identity-routers';
import { clientAddress, trustedProxyMatcher } from '../rest/client-address';
import { refuseWithHttpError, requestAddress } from '../rest/middleware/credentials';
import { installRawPublicRoutes, publicRouter } from '../rest/routes/public-routes';
import { installLobbyPageRoutes } from '../realtime/lobby-page-routes';
import { attachSocketServer } from '../realtime/socket-server';
import { toHttpError } from '../rest/error-mapping';
import { runLobbyCommand } from './engine/lobby-command-table';
import { createUwsApp, listen, uwsBuild } from '../realtime/uws-host';
import { buildOpenApiDocument } from '../schema/openapi';
import { allRoutes } from '../schema/routes';
import { ConfigError, loadConfig, type Config } from './config/config';
import { resolveSessionSecret } from './config/session-secret';
import { openDatabase, type Database } from './db/orm';
import { PublicReadRepository } from './db/public-read-repository';
import { seedIfEmpty } from './db/seed';
import { UsersRepository } from './db/users-repository';
import { Presence } from './identity/presence';
import { createIdentity } from './identity/identity-services';
import type { LiveStore } from './live/live-store';
import { openLiveStore } from './live/open-live-store';
import { createLogger } from './observability/logger';
import { durablePublicSource } from './public-reads/durable-public-source';
import { PublicReads } from './public-reads/public-reads';
import { SerializedCache } from './public-reads/serialized-cache';
import { InFlight } from './server-lifecycle';
import { startLobbyServices } from './engine/lobby-services';
import { lobbyRouter } from '../rest/routes/lobby-routes';
import { partyRouter } from '../rest/routes/party-routes';
import { serversRouter } from '../rest/routes/servers-routes';
import { adminRouter } from '../rest/routes/admin-routes';
import { createAdmin } from './admin/admin-services';
import { builtInMaps, MapCatalog } from './maps/map-catalog';

export interface ServerOptions {
  config: Config;
  logger?: Logger;
  clock?: () => number;
  /** Serve the hot public reads from native uWS routes (default); off only to measure the difference. */
  rawPublicRoutes?: boolean;
}

export interface RunningServer {
  port: number;
  url: string;
  logger: Logger;
  db: Database;
  live: LiveStore;
  /** Stops accepting, lets in-flight requests answer, closes sockets, flushes, closes stores. */
  close(): Promise<void>;
}

const PUBLIC_CACHE_MS = 30_000;
const DRAIN_TIMEOUT_MS = 10_000;

/** The composition root: every part is built here and handed what it needs; nothing else wires. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { config } = options;
  const clock = options.clock ?? Date.now;
  const logger = options.logger ?? createLogger(config.logLevel);
  const uws = createUwsApp();
  logger.info({ build: uwsBuild() }, 'uWebSockets.js loaded');

  const sessionSecret = await resolveSessionSecret(config.sessionSecret, config.dataDir);
  const cleanups: Array<() => Promise<void>> = [];
  try {
    const live = await openLiveStore({
      redisUrl: config.redisUrl,
      redisPrefix: config.redisPrefix,
      dataDir: config.dataDir,
      onError: (error) => logger.error({ err: error }, 'live store error'),
    });
    cleanups.unshift(() => live.close());
    const dbStarted = performance.now();
    const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
    cleanups.unshift(() => db.close());
    const dbOpened = performance.now();
    await db.migrate();
    const migrated = performance.now();
    const seeded = config.seedDemoData && (await seedIfEmpty(db, new Date(clock())));
    logger.info(
      { kind: db.kind, openMs: Math.round(dbOpened - dbStarted), migrateMs: Math.round(migrated - dbOpened), seedMs: seeded ? Math.round(performance.now() - migrated) : 0 },
      seeded ? 'database ready; empty database seeded with demo data' : 'database ready',
    );

    const users = new UsersRepository(db);
    const presence = new Presence(live, clock);
    const publicReads = new PublicReads(
      durablePublicSource(new PublicReadRepository(db), users),
      // `engines` is built below; the public routes only ask once the server listens.
      { openLobbies: () => engines.lobbies.summaries(), onlineCount: () => presence.countOnline() },
      new SerializedCache(PUBLIC_CACHE_MS, 2_000, clock),
      clock,
    );
    const identity = createIdentity({
      config, sessionSecret, db, live, users, presence, clock, logger,
      refuse: refuseWithHttpError, addressOf: requestAddress(config.trustProxy),
    });
    // Runs before the database closes: queued key-audit rows are written first.
    cleanups.unshift(() => identity.close());
    const identityRoutes = identityRouters({ identity, config, users, db, presence, clock, logger });
    // socket.io before the REST app, so its /socket.io/* routes win over express's catch-all.
    const sockets = await attachSocketServer(uws, {
      logger,
      redis: config.redisUrl ? { url: config.redisUrl, prefix: config.redisPrefix } : undefined,
      publicUrl: config.publicUrl,
    });
    cleanups.unshift(() => sockets.close());
    const maps = new MapCatalog([builtInMaps]);
    const engines = await startLobbyServices({
      db, live, users, clock, logger, broadcast: sockets.broadcast, publicCache: publicReads.cache, maps,
    });
    // Before the socket server and the stores close: the deadline worker stops first.
    cleanups.unshift(() => engines.close());
    const admin = createAdmin({ db, users, lobbies: engines.lobbies, invalidate: engines.invalidate, clock });
    const isTrustedProxy = trustedProxyMatcher(config.trustProxy);
    sockets.serve({
      lobbies: engines.lobbies,
      // The REST routes' own command table and credential check: a socket command answers exactly as its route does.
      runCommand: (code, name, body, caller) => runLobbyCommand(engines.lobbies, code, name, body as never, caller),
      authenticate: identity.authenticate,
      errorStatus: toHttpError,
      presence,
      resolveCredential: ({ cookieHeader, token, peerAddress, forwardedFor }) =>
        identity.authenticator.resolveSocketCredential({
          cookieHeader,
          token,
          address: clientAddress(peerAddress, forwardedFor, isTrustedProxy),
        }),
    });
    installLobbyPageRoutes(uws);

    const anonymous = async () => null;
    const inFlight = new InFlight();
    installBodySizeGuard(uws);
    if (options.rawPublicRoutes !== false) {
      installRawPublicRoutes(uws, publicReads, (error) => logger.error({ err: error }, 'public read failed'));
    }
    mountRestApp(uws, {
      logger,
      before: [inFlight.middleware],
      routers: [
        opsRouter({ database: () => db.ping(), liveStore: () => live.get('readyz').then(() => true, () => false) }, anonymous),
        docsRouter(() => buildOpenApiDocument(allRoutes, config.publicUrl)),
        publicRouter(publicReads, anonymous),
        ...identityRoutes.routers,
        lobbyRouter(engines.lobbies, identity.authenticate),
        partyRouter(engines.parties, identity.authenticate, identity.authenticator.optionalSession),
        serversRouter(maps, anonymous),
        adminRouter({ authenticate: identity.authenticate, users, ...admin }),
        // Keep last: GET /api/users/:platformId would shadow later /api/users/<name> paths.
        identityRoutes.last,
      ],
    });

    const listening = await listen(uws, config.host, config.port);
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${listening.port}`;
    logger.info({ url, database: db.kind, liveStore: live.kind }, 'listening');

    let closing: Promise<void> | undefined;
    return {
      port: listening.port,
      url,
      logger,
      db,
      live,
      close: () =>
        (closing ??= (async () => {
          listening.stopAccepting();
          const left = await inFlight.drain(DRAIN_TIMEOUT_MS);
          if (left > 0) logger.warn({ left }, 'closing with requests still in flight');
          for (const cleanup of cleanups) await cleanup();
          logger.info('closed');
        })()),
    };
  } catch (error) {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
    throw error;
  }
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const server = await startServer({ config });
  const stop = (signal: string) => {
    server.logger.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (error) => {
        server.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    process.stderr.write(`start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
