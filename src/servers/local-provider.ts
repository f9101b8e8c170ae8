import { startGameServerSimulator, type RunningSimulator } from '../integrations/game-server-simulator/game-server-simulator';
import type { CloudProvider, HostedServer, ProvisionRequest, Region } from './cloud-provider';

export interface LocalProviderOptions {
  host?: string;
  /** Where the simulated league plugin calls back, and with which secret; no plugin without a secret. */
  plugin: () => { apiUrl: string; secret: string } | undefined;
}

/** The regions the local driver offers: names shaped like a real host's, all on this machine. */
export const LOCAL_REGIONS: readonly Region[] = [
  { id: 'eu-central', name: 'Europe Central (local)' },
  { id: 'us-east', name: 'US East (local)' },
];

/**
 * The `local` driver: every reservation gets a game-server simulator on 127.0.0.1 with ports of
 * its own, real RCON and A2S a player's tools can reach. The simulators live in the process that
 * created them; the reference carries their addresses, so any instance can see them answer.
 */
export class LocalProvider implements CloudProvider {
  readonly kind = 'local' as const;
  private readonly running = new Map<string, RunningSimulator>();

  constructor(private readonly options: LocalProviderOptions) {}

  async regions(): Promise<Region[]> {
    return [...LOCAL_REGIONS];
  }

  async create(request: ProvisionRequest): Promise<{ ref: string }> {
    const link = this.options.plugin();
    const sim = await startGameServerSimulator({
      host: this.options.host ?? '127.0.0.1',
      map: request.map,
      rconPassword: request.rconPassword,
      serverPassword: request.serverPassword ?? undefined,
      hostname: `League reservation #${request.reservationId}`,
      plugin: link ? { ...link, reservationId: request.reservationId } : undefined,
    });
    await sim.game.execute(`exec ${request.configPreset}`);
    const ref = `local:${sim.host}:${sim.queryPort}:${sim.rconPort}`;
    this.running.set(ref, sim);
    return { ref };
  }

  async status(ref: string): Promise<HostedServer> {
    const parts = /^local:(.+):(\d+):(\d+)$/.exec(ref);
    if (!parts) return { state: 'gone', connectAddress: null, rconAddress: null };
    const [, host, queryPort, rconPort] = parts;
    // A simulator of another instance cannot be looked up here; it counts as running and the
    // lifecycle's A2S check decides whether it really answers.
    return { state: 'running', connectAddress: `${host}:${queryPort}`, rconAddress: `${host}:${rconPort}` };
  }

  async destroy(ref: string): Promise<void> {
    const sim = this.running.get(ref);
    this.running.delete(ref);
    await sim?.close();
  }

  /** The simulator behind a reference made by this process (tests drive its players). */
  simulator(ref: string): RunningSimulator | undefined {
    return this.running.get(ref);
  }

  async close(): Promise<void> {
    const all = [...this.running.values()];
    this.running.clear();
    await Promise.all(all.map((sim) => sim.close()));
  }
}
