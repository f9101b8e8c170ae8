import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import { installBodySizeGuard } from '../host/body-size-guard';
import { mountRestApp } from '../rest/rest-app';
import { docsRouter } from '../rest/routes/docs-routes';
import { opsRouter } from '../rest/routes/ops-routes';
import { identityRouters } from '../rest/routes/identity-routers';
import { refuseWithHttpError } from '../rest/middleware/credentials';
import { assembleDoor } from './composition/door';
import { installRawPublicRoutes, publicRouter } from '../rest/routes/public-routes';
import { installLobbyPageRoutes } from '../realtime/lobby-page-routes';
import { attachSocketServer } from '../realtime/socket-server';
import { toHttpError } from './door/error-answer';
import type { RequestObserver } from './observability/request-observer';
import { runLobbyCommand } from './engine/lobby-command-table';
import { createUwsApp, listen, uwsBuild } from '../host/uws-host';
import { buildOpenApiDocument } from '../schema/openapi';
import { allRoutes } from '../schema/routes';
import { ConfigError, loadConfig, type Config } from './config/config';
import { resolveSessionSecret } from './config/session-secret';
import { openDatabase, type Database } from './db/orm';
import { PublicReadRepository } from './db/public-read-repository';
import { seedIfEmpty } from './db/seed';
import { UsersRepository } from './db/users-repository';
import { Presence } from './identity/presence';
import type { Caller } from './identity/caller';
import { UserActionLimit, userActionLimits } from './identity/user-action-limit';
import { createIdentity } from './identity/identity-services';
import type { LiveStore } from './live/live-store';
import { openLiveStore } from './live/open-live-store';
import { createLogger } from './observability/logger';
import { installLastResort } from './observability/last-resort';
import { durablePublicSource } from './public-reads/durable-public-source';
import { PublicReads } from './public-reads/public-reads';
import { SerializedCache } from './public-reads/serialized-cache';
import { runWithin } from './server-lifecycle';
import { startLobbyServices } from './engine/lobby-services';
import { installLobbyCommandRoutes, lobbyRouter } from '../rest/routes/lobby-routes';
import { partyRouter } from '../rest/routes/party-routes';
import { pointsRouter } from '../rest/routes/points-routes';
import { PointsRepository } from './db/points-repository';
import { pointsShop } from './identity/profile-shop';
import { serversRouter } from '../rest/routes/servers-routes';
import { adminRouter } from '../rest/routes/admin-routes';
import { createAdmin } from './admin/admin-services';
import { builtInMaps, MapCatalog } from './maps/map-catalog';
import { MapLibrary } from './maps/map-library';
import { MapRepository } from './db/map-repository';
import { openMapStore } from './maps/open-map-store';
import { UploadTempFiles } from './maps/upload-temp-files';
import { mapsRouter } from '../rest/routes/maps-routes';
import { installMapUploadRoute } from '../rest/routes/map-upload-route';
import { startServerServices, type ServerServices } from './servers/server-services';
import type { CloudProvider } from './servers/cloud-provider';
import { reservationPins } from './servers/reservation-pins';
import { ReservationRepository } from './servers/reservation-repository';
import { lobbyServerRouter } from '../rest/routes/lobby-server-routes';
import type { LifecycleTiming } from './servers/reservation-lifecycle';
import { randomBytes } from 'node:crypto';
import { premiumRouter } from '../rest/routes/premium-routes';
import { assembleTournaments, socketRooms } from './composition/tournaments';
import { tournamentCompetitions } from './tournaments/tournament-competitions';
import { PremiumOrderRepository } from './db/premium-order-repository';
import { PayPalClient } from './integrations/paypal/paypal-client';
import { PremiumService } from './premium/premium-service';
import { assembleNotifications, type Notifications } from './composition/notifications';
import { assembleCommunity } from './composition/community';
import { assembleApprovals } from './composition/approvals';
import { assembleTeams } from './composition/teams';
import type { TeamCompetitions } from './teams/team-competitions';
import { assembleObservability } from './composition/observability';
import type { Metrics } from './observability/metrics';
import { assembleDevLogin } from './composition/dev-login';
import { openDemoLobby } from './composition/demo-lobby';

export interface ServerOptions {
  config: Config;
  logger?: Logger;
  clock?: () => number;
  /** Serve the hot public reads from native uWS routes (default); off only to measure the difference. */
  rawPublicRoutes?: boolean;
  /** More observers of every answered request (metrics); the access log is always one. */
  observers?: RequestObserver[];
  /** A cloud host driver other than the configured one, and faster lifecycle timing (tests). */
  serverProvider?: CloudProvider;
  serverTiming?: Partial<LifecycleTiming>;
  /** Competition entries for the teams area other than the wired ones (tests). */
  teamCompetitions?: TeamCompetitions;
}

export interface RunningServer {
  port: number;
  url: string;
  logger: Logger;
  db: Database;
  live: LiveStore;
  servers: ServerServices;
  /** The outbox backlog for /metrics (`notifications.backlog`), the delivery worker. */
  notifications: Notifications;
  metrics: Metrics;
  /** Stops accepting, lets in-flight requests answer, closes sockets, flushes, closes stores. */
  close(): Promise<void>;
}

const PUBLIC_CACHE_MS = 30_000;
/** How long closing the stores may take after the drain; the process exits within drain + 5 s whatever happens. */
const STORES_CLOSE_MS = 3_000;
const EXIT_MARGIN_MS = 5_000;

/** The composition root: every part is built here and handed what it needs; nothing else wires. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { config } = options;
  const clock = options.clock ?? Date.now;
  const logger = options.logger ?? createLogger(config.logLevel);
  const uws = createUwsApp();
  logger.info({ build: uwsBuild() }, 'uWebSockets.js loaded');

  const sessionSecret = await resolveSessionSecret(config.sessionSecret, config.dataDir);
  const cleanups: Array<() => Promise<void>> = [];
  const observability = assembleObservability(config);
  try {
    const live = observability.observeLive(await openLiveStore({
      redisUrl: config.redisUrl,
      redisPrefix: config.redisPrefix,
      dataDir: config.dataDir,
      commandTimeoutMs: config.redisTimeoutMs,
      onError: (error) => logger.error({ err: error }, 'live store error'),
    }));
    cleanups.unshift(() => live.close());
    const dbStarted = performance.now();
    const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger, timeoutMs: config.databaseTimeoutMs, onQuery: observability.onQuery });
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
    });
    // Runs before the database closes: queued key-audit rows are written first.
    cleanups.unshift(() => identity.close());
    const points = new PointsRepository(db);
    // `engines` (the cross-instance cache invalidation) is built below; purchases happen once listening.
    const pointsChanged = () => engines.invalidate('points');
    const shop = pointsShop(points, config.points.customAvatarCost, pointsChanged);
    const identityRoutes = identityRouters({ identity, config, users, presence, clock, logger, shop });
    const door = assembleDoor({ logger, trustProxy: config.trustProxy, observers: [...(options.observers ?? []), (record) => observability.metrics.observeRequest(record)] });
    const { inFlight, addressOf } = door;
    // socket.io before the REST app, so its /socket.io/* routes win over express's catch-all.
    const sockets = await attachSocketServer(uws, {
      logger,
      publicUrl: config.publicUrl,
      limits: { ...config.socketLimits, addressOf },
    });
    cleanups.unshift(() => sockets.close());
    const mapStorage = await openMapStore(config);
    const mapLibrary = new MapLibrary({
      repo: new MapRepository(db),
      store: mapStorage.store,
      temps: new UploadTempFiles(mapStorage.tempDir),
      premium: identity.premium,
      clock,
      logger,
    });
    await mapLibrary.start();
    // Runs before the database closes: uploads cut short by the shutdown are rejected, not left processing.
    cleanups.unshift(async () => {
      await mapLibrary.close();
      mapStorage.close();
    });
    const maps = new MapCatalog([builtInMaps, mapLibrary]);
    const { paypal: paypalConfig } = config;
    const premium = new PremiumService({
      grants: identity.premium,
      orders: new PremiumOrderRepository(db),
      paypal:
        paypalConfig.clientId && paypalConfig.clientSecret
          ? new PayPalClient({ apiUrl: paypalConfig.apiUrl, clientId: paypalConfig.clientId, clientSecret: paypalConfig.clientSecret, timeoutMs: paypalConfig.timeoutMs, clock })
          : null,
      webhookId: paypalConfig.webhookId,
      prices: config.premium.prices,
      currency: config.premium.currency,
      publicUrl: config.publicUrl,
      clock,
      random: (n) => randomBytes(n),
      logger,
    });
    const notifications = await assembleNotifications({ config, db, sessionSecret, clock, logger });
    // Runs before the database closes: a delivery in flight records its outcome first.
    cleanups.unshift(() => notifications.close());
    observability.metrics.setOutboxBacklog(() => notifications.backlog());
    const reservationRepository = new ReservationRepository(db);
    const engines = await startLobbyServices({
      lobbyNotices: notifications.lobbyNotices,
      db, live, users, clock, logger, broadcast: sockets.broadcast, publicCache: publicReads.cache, maps, earning: config.points.earning,
      reservations: reservationPins(reservationRepository),
      leaseMs: config.deadlineLeaseMs,
    });
    // Before the socket server and the stores close: the deadline worker stops first.
    cleanups.unshift(() => engines.close());
    if (seeded) await openDemoLobby({ lobbies: engines.lobbies, users, logger });
    let selfUrl = config.publicUrl;
    const servers = await startServerServices({
      config, db, live, maps, clock, logger, selfUrl: () => selfUrl,
      provider: options.serverProvider, timing: options.serverTiming, lobbies: engines.lobbies,
    });
    cleanups.unshift(() => servers.close());
    const admin = createAdmin({
      db, users, lobbies: engines.lobbies, reservations: reservationRepository, invalidate: engines.invalidate, bansChanged: engines.bansChanged, clock,
      outbox: notifications.outbox,
    });
    const approvalsArea = assembleApprovals({ db, clock, authenticate: identity.authenticate });
    const teamsArea = await assembleTeams({
      db, clock, authenticate: identity.authenticate, approvals: approvalsArea, competitions: options.teamCompetitions ?? tournamentCompetitions,
      realtime: { live, sockets, onError: (error) => logger.error({ err: error }, 'team feed failed') },
    });
    cleanups.unshift(() => teamsArea.close());
    const userLimits = new UserActionLimit(live, clock, refuseWithHttpError, userActionLimits(config.userRateLimits, config.lobbyCreatesPerMinute));
    const { engine: lobbies, gate: commandGate } = observability.observeLobbyCommands(engines.lobbies, (type: string, caller: Caller) => userLimits.check(type, caller));
    observability.observeSockets(() => sockets.io.engine.clientsCount);
    const clientLogs = observability.clientLogs({ db, live, clock, sessionSecret, logger, authenticate: identity.authenticate, optionalSession: identity.authenticator.optionalSession });
    cleanups.unshift(() => clientLogs.close());
    sockets.serve({
      lobbies: engines.lobbies,
      // The REST routes' own command table, gate and credential check: a socket command answers exactly as its route does.
      runCommand: (code, name, body, caller) => runLobbyCommand(lobbies, code, name, body as never, caller, commandGate),
      authenticate: identity.authenticator.authenticateRecent,
      exchange: door,
      addressOf,
      errorStatus: toHttpError,
      presence,
      resolveCredential: ({ cookieHeader, token, peerAddress, forwardedFor }) =>
        identity.authenticator.resolveSocketCredential({ cookieHeader, token, address: addressOf(peerAddress, forwardedFor) }),
    });
    installLobbyPageRoutes(uws);
    const community = await assembleCommunity({
      config, db, live, io: sockets.io, users, clock, logger, approvals: approvalsArea,
      authenticate: identity.authenticate, banAuthor: (caller, body) => admin.bans.ban(caller, body),
    });
    cleanups.unshift(() => community.close());
    const tournaments = await assembleTournaments({ db, live, clock, logger, authenticate: identity.authenticate, sockets: socketRooms(sockets), outbox: notifications.outbox });
    cleanups.unshift(() => tournaments.close());

    // Anonymous routes still refuse a key in the URL (401), as every route does.
    const anonymous = identity.authenticate;
    // The streamed upload is its own native route, registered before the 1 MB guard refuses big bodies.
    installMapUploadRoute(uws, { ...door, library: mapLibrary, authenticate: identity.authenticate });
    // The hot path: lobby commands on native routes, the same contracts and checks as their express bindings.
    installLobbyCommandRoutes(uws, lobbies, { ...door, authenticate: identity.authenticator.authenticateRecent }, commandGate);
    clientLogs.install(uws, { ...door, authenticate: identity.authenticate });
    installBodySizeGuard(uws);
    if (options.rawPublicRoutes !== false) installRawPublicRoutes(uws, publicReads, { ...door, authenticate: anonymous });
    mountRestApp(uws, {
      door,
      routers: [
        opsRouter({ database: () => db.ready(), liveStore: () => live.get('readyz').then(() => true, () => false) }, anonymous),
        docsRouter(() => buildOpenApiDocument(allRoutes, config.publicUrl)),
        publicRouter(publicReads, anonymous),
        ...identityRoutes.routers,
        assembleDevLogin({ config, users, sessions: identity.sessions, clock }),
        // Lobby commands are the hot path: their session user's row may be up to half a second old.
        lobbyRouter(lobbies, identity.authenticator.authenticateRecent, commandGate),
        partyRouter(engines.parties, identity.authenticate),
        pointsRouter({ authenticate: identity.authenticate, points, cache: publicReads.cache, invalidate: pointsChanged }),
        serversRouter(maps, servers.reservations, identity.authenticate),
        mapsRouter(mapLibrary, identity.authenticate),
        lobbyServerRouter(servers.lobbyServer, servers.plugins, identity.authenticate),
        adminRouter({ authenticate: identity.authenticate, users, ...admin }),
        premiumRouter(premium, identity.authenticate),
        notifications.router(identity.authenticate),
        community.router,
        teamsArea.router,
        approvalsArea.router,
        clientLogs.router,
        tournaments.router,
        // Keep last: GET /api/users/:platformId would shadow later /api/users/<name> paths.
        identityRoutes.last,
      ],
    });

    const listening = await listen(uws, config.host, config.port);
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${listening.port}`;
    selfUrl = url;
    notifications.start();
    logger.info({ url, database: db.kind, liveStore: live.kind }, 'listening');

    let closing: Promise<void> | undefined;
    return {
      port: listening.port,
      url,
      logger,
      db,
      live,
      servers,
      notifications,
      metrics: observability.metrics,
      close: () =>
        (closing ??= (async () => {
          listening.stopAccepting();
          const left = await inFlight.drain(config.shutdownDrainMs);
          if (left > 0) logger.warn({ left }, 'drain time over: answering the requests still in flight 503');
          inFlight.refuseRemaining();
          const unfinished = await runWithin(cleanups.map((run, i) => ({ name: `cleanup ${i + 1}`, run })), STORES_CLOSE_MS);
          if (unfinished.length > 0) logger.warn({ unfinished }, 'closing: some parts did not close in time');
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
  installLastResort(process, server.logger);
  const stop = (signal: string) => {
    server.logger.info({ signal }, 'shutting down');
    // The last resort: whatever still holds the process (a socket that never closes), it exits.
    setTimeout(() => process.exit(1), config.shutdownDrainMs + EXIT_MARGIN_MS).unref();
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
