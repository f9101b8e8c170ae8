import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { startDeadlineWorker } from '../engine/deadline-worker';
import type { LiveStore } from '../live/live-store';
import type { MapCatalog } from '../maps/map-catalog';
import type { CloudProvider } from '../servers/cloud-provider';
import { sourceServerLink, type GameServerLink } from '../servers/game-server-link';
import { LocalProvider } from '../servers/local-provider';
import { HetznerProvider } from '../servers/hetzner-provider';
import { LIFECYCLE_QUEUE, ReservationLifecycle, type LifecycleTiming } from '../servers/reservation-lifecycle';
import type { ReservationRepository } from '../servers/reservation-repository';
import type { Repositories } from './repositories';
import { ReservationService } from '../servers/reservation-service';
import type { LobbyLogRepository } from '../servers/lobby-log-repository';
import { LOG_TIMEOUT_QUEUE, LobbyServerService } from '../servers/lobby-server-service';
import { PluginService } from '../servers/plugin-service';
import type { LobbyDetail } from '../../schema/lobby';
import type { LobbyFeed } from '../engine/lobby-broadcast';

export interface ServerServicesDeps {
  config: Config;
  live: LiveStore;
  repos: Pick<Repositories, 'reservations' | 'premium' | 'lobbyLogs'>;
  maps: MapCatalog;
  clock: () => number;
  logger: Logger;
  /** This instance's own base URL, known once it listens: where the local simulators' plugin calls back. */
  selfUrl: () => string;
  /** A cloud host other than the configured one (tests hand in a driver against a fake). */
  provider?: CloudProvider;
  timing?: Partial<LifecycleTiming>;
  link?: GameServerLink;
  /** The lobby engine's read of a lobby (pinned lobbies' rosters, hosts, votes). */
  lobbies: { detail(code: string): Promise<LobbyDetail | null> };
  /** This instance's lobby feed, whose updates of lobbies going live set their game servers up. */
  lobbyFeed: Pick<LobbyFeed, 'listen'>;
}

export interface ServerServices {
  reservations: ReservationService;
  lobbyServer: LobbyServerService;
  plugins: PluginService;
  logs: LobbyLogRepository;
  lifecycle: ReservationLifecycle;
  repo: ReservationRepository;
  provider: CloudProvider;
  link: GameServerLink;
  close(): Promise<void>;
}

function providerFor(deps: ServerServicesDeps): CloudProvider {
  if (deps.provider) return deps.provider;
  const { config } = deps;
  const plugin = () => (config.pluginSecret ? { apiUrl: deps.selfUrl(), secret: config.pluginSecret } : undefined);
  if (config.servers.provider === 'hetzner') {
    const { apiUrl, token, image, serverType, gamePort } = config.servers.hetzner;
    // loadConfig refuses CLOUD_PROVIDER=hetzner without a token.
    return new HetznerProvider({ apiUrl, token: token!, image, serverType, gamePort, plugin, clock: deps.clock });
  }
  return new LocalProvider({ plugin });
}

/** Builds the game-server area and starts its lifecycle on the durable schedule. */
export async function assembleServers(deps: ServerServicesDeps): Promise<ServerServices> {
  const { live, clock, logger } = deps;
  const provider = providerFor(deps);
  const link = deps.link ?? sourceServerLink;
  const { reservations: repo, lobbyLogs: logs } = deps.repos;
  const wake = (id: number, at: number) => live.schedule(LIFECYCLE_QUEUE, String(id), at);
  const lifecycle = new ReservationLifecycle({ repo, provider, link, clock, wake, logger, timing: deps.timing });
  const reservations = new ReservationService({
    repo,
    premium: deps.repos.premium,
    maps: deps.maps,
    provider,
    regionCapacity: deps.config.servers.regionCapacity,
    clock,
    wake,
    endNow: (record, reason) => lifecycle.end(record, reason),
  });
  const lobbyServer = new LobbyServerService({
    repo, logs, lobbies: deps.lobbies, link, clock, logger,
    wakeLogTimeout: (code, uploadingAt, at) => live.schedule(LOG_TIMEOUT_QUEUE, `${code}|${uploadingAt}`, at),
  });
  const plugins = new PluginService({ repo, logs, lobbies: deps.lobbies, regionCapacity: deps.config.servers.regionCapacity, clock, wake });
  // Every instance sees every lobby update; the log row's insert makes one of them configure.
  const stopListening = deps.lobbyFeed.listen({
    phases: LobbyServerService.SETUP_PHASES,
    lobbyUpdated: (_code, _version, lobby) =>
      void lobbyServer.lobbyUpdated(lobby).catch((error) => logger.error({ err: error, lobby: lobby.code }, 'setting up the game server failed')),
  });
  // A wake-up lost with an in-process store (or a crash between steps) is found again here.
  for (const record of await repo.unfinished()) await wake(record.id, clock());
  const worker = startDeadlineWorker({
    live,
    clock,
    queues: [
      { queue: LIFECYCLE_QUEUE, run: (member) => lifecycle.step(Number(member)) },
      { queue: LOG_TIMEOUT_QUEUE, run: (member) => lobbyServer.logTimedOut(member) },
    ],
    intervalMs: 200,
    retryMs: 2_000,
    onError: (error, queue, member) => logger.error({ err: error, queue, member }, 'server lifecycle step failed'),
  });
  return {
    reservations, lobbyServer, plugins, logs, lifecycle, repo, provider, link,
    async close() {
      stopListening();
      await worker.stop();
      await provider.close();
    },
  };
}
