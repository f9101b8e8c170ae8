import { machineTime } from './clock/machine-time';
import type { Logger } from 'pino';
import { attachSocketServer } from '../realtime/socket-server';
import { createUwsApp, listen, uwsBuild } from '../host/uws-host';
import type { Config } from './config/config';
import { resolveSessionSecret } from './config/session-secret';
import { databaseTimeoutMs, type Database } from './db/orm';
import { Presence } from './identity/presence';
import type { LiveStore } from './live/live-store';
import { createLogger } from './observability/logger';
import type { QueryObserver } from './observability/query-timing-logger';
import { RequestScopes, type RequestQueryObserver } from './door/request-scope';
import type { RequestObserver } from './observability/request-observer';
import type { Metrics } from './observability/metrics';
import { runWithin } from './server-lifecycle';
import type { CloudProvider } from './servers/cloud-provider';
import { reservationPins } from './servers/reservation-pins';
import type { LifecycleTiming } from './servers/reservation-lifecycle';
import type { TeamCompetitions } from './teams/team-competitions';
import { tournamentCompetitions } from './tournaments/tournament-competitions';
import { assembleAdmin } from './composition/admin';
import { assembleApprovals } from './composition/approvals';
import { assembleCommunity } from './composition/community';
import { openDemoLobby } from './composition/demo-lobby';
import type { DoorBindings } from './door/door-bindings';
import { assembleDoor } from './composition/door';
import { assembleIdentity } from './composition/identity';
import { assembleLobbies } from './composition/lobbies';
import { assembleLobbyCommands } from './composition/lobby-commands';
import { assembleMaps } from './composition/maps';
import { assembleNotifications, type Notifications } from './composition/notifications';
import { assembleObservability } from './composition/observability';
import { Parts } from './composition/parts';
import { assemblePremium, paypalClient } from './composition/premium';
import { assembleCups, type CupsAssembly } from './composition/cups';
import { CupEntryFees } from './cups/cup-fees';
import { assemblePublicReads, publicReadCache } from './composition/public-reads';
import { installRoutes } from './composition/routes';
import { assembleServers, type ServerServices } from './composition/servers';
import type { StoreStart } from './composition/store-start';
import { openStores } from './composition/stores';
import { assembleTeams } from './composition/teams';
import { assembleTournaments } from './composition/tournaments';

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
  /** Another observer of every database statement, beside the metrics', told the request that sent it (tests). */
  onQuery?: RequestQueryObserver;
  /** The stores' first steps, begun by the entry while this module graph loaded (src/start.ts). */
  begun?: StoreStart;
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
  /** Which door serves which route, as the binders recorded it (the parity test reads it). */
  bindings: DoorBindings;
  /** Stops accepting, lets in-flight requests answer, closes sockets, flushes, closes stores. */
  close(): Promise<void>;
}

/** How long closing the stores may take after the drain; the process exits within drain + 5 s whatever happens. */
const STORES_CLOSE_MS = 3_000;
/** The process's last resort after a SIGTERM (src/start.ts): exit within the drain and this margin, whatever holds it. */
export const EXIT_MARGIN_MS = 5_000;
/** After the drain: how long without a new request on a kept-alive connection before those connections are closed. */
const KEEP_ALIVE_QUIET_MS = 250;

/** The composition root: every area is assembled here (src/composition/*) and handed what it needs; nothing else wires. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { config } = options;
  const clock = options.clock ?? machineTime.wall;
  const logger = options.logger ?? createLogger(config.logLevel);
  const uws = createUwsApp();
  logger.info({ build: uwsBuild() }, 'uWebSockets.js loaded');

  const sessionSecret = await resolveSessionSecret(config.sessionSecret, config.dataDir);
  const parts = new Parts();
  const observability = assembleObservability(config);
  try {
    const also = options.onQuery;
    // The request scope is kept only for an observer that reads it (src/door/request-scope.ts).
    const scopes = also ? new RequestScopes() : undefined;
    const onQuery: QueryObserver = also ? (sql, seconds, failed) => (observability.onQuery(sql, seconds, failed), also(sql, seconds, failed, scopes!.current())) : observability.onQuery;
    const { live, db, repos, seeded } = await openStores({ config, logger, clock, parts, observeLive: observability.observeLive, onQuery, begun: options.begun });
    const presence = new Presence(live, clock);
    // Closes before the database: queued key-audit rows are written first.
    const identity = parts.own(await assembleIdentity({ config, sessionSecret, db, live, repos, presence, clock, logger }));
    const door = assembleDoor({ logger, trustProxy: config.trustProxy, scopes, observers: [...(options.observers ?? []), (record) => observability.metrics.observeRequest(record)] });
    // socket.io before the REST app, so its /socket.io/* routes win over express's catch-all.
    const sockets = parts.own(await attachSocketServer(uws, { logger, publicUrl: config.publicUrl, limits: { ...config.socketLimits, addressOf: door.addressOf } }));
    const maps = parts.own(await assembleMaps({ config, repos, clock, logger }));
    const paypal = paypalClient(config, clock);
    // `cups` is assembled below; PayPal's webhook is only heard once listening.
    const premium = assemblePremium({ config, repos, paypal, otherOrders: (event) => cups.webhookEvent(event), clock, logger });
    const notifications = parts.own(await assembleNotifications({ config, db, sessionSecret, clock, logger }));
    observability.metrics.setOutboxBacklog(() => notifications.backlog());
    const publicCache = publicReadCache(clock);
    const lobbies = parts.own(await assembleLobbies({
      lobbyNotices: notifications.lobbyNotices,
      db, live, repos, clock, logger, broadcast: sockets.broadcast, publicCache, maps: maps.catalog, earning: config.points.earning,
      reservations: reservationPins(repos.reservations),
      leaseMs: config.deadlineLeaseMs,
      // A pending durable change outlives any database call of its writer (see PendingMark).
      durableLeaseMs: 2 * databaseTimeoutMs({ timeoutMs: config.databaseTimeoutMs, databaseUrl: config.databaseUrl }) + 1_000,
    }));
    if (seeded) await openDemoLobby({ lobbies: lobbies.lobbies, users: repos.users, logger });
    const publicReads = assemblePublicReads({ repos, lobbies: lobbies.lobbies, presence, cache: publicCache, clock });
    let selfUrl = config.publicUrl;
    const servers = parts.own(await assembleServers({
      config, live, repos, maps: maps.catalog, clock, logger, selfUrl: () => selfUrl,
      provider: options.serverProvider, timing: options.serverTiming, lobbies: lobbies.lobbies, lobbyFeed: lobbies.feed,
    }));
    const admin = assembleAdmin({
      db, repos, users: repos.users, lobbies: lobbies.lobbies, reservations: repos.reservations, invalidate: lobbies.invalidate, bansChanged: lobbies.bansChanged, clock,
      outbox: notifications.outbox,
    });
    const approvals = assembleApprovals({ db, repos, clock, authenticate: identity.authenticate });
    const teams = parts.own(await assembleTeams({
      db, repos, clock, authenticate: identity.authenticate, approvals, competitions: options.teamCompetitions ?? tournamentCompetitions,
      realtime: { live, sockets, logger },
    }));
    const commands = assembleLobbyCommands({ config, live, clock, engine: lobbies.lobbies, observe: observability.observeLobbyCommands, sockets, identity, door, presence });
    observability.observeSockets(() => sockets.io.engine.clientsCount);
    const clientLogs = parts.own(observability.clientLogs({ db, live, clock, sessionSecret, logger, authenticate: identity.authenticate, sameSiteSession: identity.authenticator.sameSiteSession }));
    const community = parts.own(await assembleCommunity({
      config, db, repos, live, sockets, users: repos.users, clock, logger, approvals,
      authenticate: identity.authenticate, banAuthor: (caller, body) => admin.bans.ban(caller, body),
    }));
    const cupFees = new CupEntryFees(repos.cups, config.premium.currency, paypal !== null);
    const tournaments = parts.own(await assembleTournaments({
      db, live, clock, logger, authenticate: identity.authenticate, sockets, outbox: notifications.outbox, repo: repos.tournaments, bans: repos.bans,
      fees: cupFees, paidEntry: (id, teamId, userId) => cups.orderEntry(id, teamId, userId), afterChange: () => cups.afterChange(),
    }));
    // Closes before the database: a refund in flight records its outcome first.
    const cups: CupsAssembly = parts.own(assembleCups({
      repo: repos.cups, fees: cupFees, tournaments: repos.tournaments, paypal, paypalTimeoutMs: config.paypal.timeoutMs, publicUrl: config.publicUrl, feeGraceMs: config.cups.feeGraceMs, logger,
      authenticate: identity.authenticate, commands: tournaments.commands, reads: tournaments.reads,
    }));

    installRoutes(uws, {
      config, db, live, repos, clock, door, identity, presence, publicReads, maps, lobbies, commands, servers, admin, premium, clientLogs,
      rawPublicRoutes: options.rawPublicRoutes,
      routers: [
        notifications.router(identity.authenticate),
        community.router,
        teams.router,
        approvals.router,
        clientLogs.router,
        tournaments.router,
        cups.router,
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
      bindings: door.bindings,
      close: () =>
        (closing ??= (async () => {
          listening.stopAccepting();
          const left = await door.inFlight.drain(config.shutdownDrainMs);
          if (left > 0) logger.warn({ left }, 'drain time over: answering the requests still in flight 503');
          door.inFlight.refuseRemaining();
          await door.inFlight.quiet(KEEP_ALIVE_QUIET_MS, Math.min(config.shutdownDrainMs, 1_000));
          const unfinished = await runWithin(parts.closers().map((run, i) => ({ name: `cleanup ${i + 1}`, run })), STORES_CLOSE_MS);
          if (unfinished.length > 0) logger.warn({ unfinished }, 'closing: some parts did not close in time');
          logger.info('closed');
        })()),
    };
  } catch (error) {
    await parts.abandon();
    throw error;
  }
}
