import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import type { DoorRoutes } from '../door/door-routes';
import { toHttpError } from '../../rest/error-mapping';
import { refuseWithHttpError } from '../../rest/middleware/credentials';
import type { Authenticate } from '../../rest/route-binder';
import type { NativeRouteDeps } from '../../rest/native-route-binder';
import { installClientLogRoute, observabilityRouter, type ClientLogRouteDeps } from '../../rest/routes/observability-routes';
import type { UwsApp } from '../../host/uws-host';
import type { Config } from '../config/config';
import { ClientLogRepository } from '../db/client-log-repository';
import type { EmSource } from '../db/orm';
import type { LobbyCommandGate } from '../engine/lobby-command-table';
import type { LobbyEngine } from '../engine/lobby-engine';
import type { Caller } from '../identity/caller';
import type { LiveStore } from '../live/live-store';
import { ClientLogIntake } from '../observability/client-log-intake';
import { ClientLogRetention } from '../observability/client-log-retention';
import { Metrics } from '../observability/metrics';
import { observedLiveStore } from '../observability/observed-live-store';
import { observedLobbyCommands } from '../observability/observed-lobby-commands';
import type { QueryObserver } from '../observability/query-timing-logger';

export interface ClientLogsInput {
  db: EmSource;
  live: LiveStore;
  clock: () => number;
  sessionSecret: string;
  logger: Logger;
  authenticate: Authenticate<Caller>;
  sameSiteSession: ClientLogRouteDeps['sameSiteSession'];
}

export interface ClientLogsPart {
  /** The native POST /api/logs/client; install before the body-size guard. */
  install(uws: UwsApp, native: NativeRouteDeps<Caller>): void;
  router: DoorRoutes;
  /** Stops the retention sweeps (before the database closes). */
  close(): Promise<void>;
}

/**
 * The observability area's assembly: the metrics first (the stores are wrapped as they open), then
 * client logs once the database, the live store and the credential check exist.
 */
export function assembleObservability(config: Config) {
  const metrics = new Metrics();
  const statusOf = (error: unknown) => toHttpError(error)?.status ?? null;
  const onQuery: QueryObserver = (sql, seconds, failed) => metrics.databaseQuery(sql, seconds, failed);

  return {
    metrics,
    onQuery,
    observeLive: (live: LiveStore): LiveStore => observedLiveStore(live, metrics),
    observeLobbyCommands: (engine: LobbyEngine, gate: LobbyCommandGate) => observedLobbyCommands(engine, gate, metrics, statusOf),
    observeSockets: (connections: () => number) => metrics.setSocketConnections(connections),

    clientLogs(input: ClientLogsInput): ClientLogsPart {
      const repository = new ClientLogRepository(input.db);
      const intake = new ClientLogIntake({
        repository,
        live: input.live,
        clock: input.clock,
        ratePerMinute: config.clientLogs.ratePerMinute,
        // A secret of its own: these hashes say nothing about cookie signatures or the key audit's.
        addressSecret: createHmac('sha256', input.sessionSecret).update('client-logs:client-address').digest('hex'),
        refuse: refuseWithHttpError,
        onStored: (entries) => metrics.clientLogsStored(entries),
      });
      const retention = new ClientLogRetention({
        repository,
        live: input.live,
        clock: input.clock,
        retentionDays: config.clientLogs.retentionDays,
        onError: (error) => input.logger.error({ err: error }, 'client log retention sweep failed; the next one retries'),
        onSwept: (deleted) => {
          metrics.clientLogsSwept(deleted);
          if (deleted > 0) input.logger.info({ deleted }, 'client log retention sweep');
        },
      });
      retention.start();
      return {
        install: (uws, native) =>
          installClientLogRoute(uws, { ...native, intake, sameSiteSession: input.sameSiteSession }),
        router: observabilityRouter({ authenticate: input.authenticate, clientLogs: repository, metrics, metricsToken: config.metricsToken }),
        close: () => retention.close(),
      };
    },
  };
}
