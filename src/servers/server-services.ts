import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { PremiumRepository } from '../db/premium-repository';
import type { Database } from '../db/orm';
import { startDeadlineWorker } from '../engine/deadline-worker';
import type { LiveStore } from '../live/live-store';
import type { MapCatalog } from '../maps/map-catalog';
import type { CloudProvider } from './cloud-provider';
import { sourceServerLink, type GameServerLink } from './game-server-link';
import { LocalProvider } from './local-provider';
import { LIFECYCLE_QUEUE, ReservationLifecycle, type LifecycleTiming } from './reservation-lifecycle';
import { ReservationRepository } from './reservation-repository';
import { ReservationService } from './reservation-service';

export interface ServerServicesDeps {
  config: Config;
  db: Database;
  live: LiveStore;
  maps: MapCatalog;
  clock: () => number;
  logger: Logger;
  /** This instance's own base URL, known once it listens: where the local simulators' plugin calls back. */
  selfUrl: () => string;
  /** A cloud host other than the configured one (tests hand in a driver against a fake). */
  provider?: CloudProvider;
  timing?: Partial<LifecycleTiming>;
  link?: GameServerLink;
}

export interface ServerServices {
  reservations: ReservationService;
  lifecycle: ReservationLifecycle;
  repo: ReservationRepository;
  provider: CloudProvider;
  link: GameServerLink;
  close(): Promise<void>;
}

function providerFor(deps: ServerServicesDeps): CloudProvider {
  if (deps.provider) return deps.provider;
  const { config } = deps;
  if (config.servers.provider === 'hetzner') throw new Error('CLOUD_PROVIDER=hetzner: the Hetzner driver is wired in main.ts');
  return new LocalProvider({
    plugin: () => (config.pluginSecret ? { apiUrl: deps.selfUrl(), secret: config.pluginSecret } : undefined),
  });
}

/** Builds the game-server area and starts its lifecycle on the durable schedule. */
export async function startServerServices(deps: ServerServicesDeps): Promise<ServerServices> {
  const { db, live, clock, logger } = deps;
  const provider = providerFor(deps);
  const link = deps.link ?? sourceServerLink;
  const repo = new ReservationRepository(db);
  const wake = (id: number, at: number) => live.schedule(LIFECYCLE_QUEUE, String(id), at);
  const lifecycle = new ReservationLifecycle({ repo, provider, link, clock, wake, logger, timing: deps.timing });
  const reservations = new ReservationService({
    repo,
    premium: new PremiumRepository(db),
    maps: deps.maps,
    provider,
    regionCapacity: deps.config.servers.regionCapacity,
    clock,
    wake,
    endNow: (record, reason) => lifecycle.end(record, reason),
  });
  // A wake-up lost with an in-process store (or a crash between steps) is found again here.
  for (const record of await repo.unfinished()) await wake(record.id, clock());
  const worker = startDeadlineWorker({
    live,
    clock,
    queues: [{ queue: LIFECYCLE_QUEUE, run: (member) => lifecycle.step(Number(member)) }],
    intervalMs: 200,
    retryMs: 2_000,
    onError: (error, queue, member) => logger.error({ err: error, queue, member }, 'server lifecycle step failed'),
  });
  return {
    reservations, lifecycle, repo, provider, link,
    async close() {
      await worker.stop();
      await provider.close();
    },
  };
}
