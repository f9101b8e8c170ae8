import type { CloudProvider, HostedServer, ProvisionRequest, Region } from './cloud-provider';

export interface HetznerOptions {
  apiUrl: string;
  token: string;
  /** Snapshot (id or name) with the game server and the league plugin installed. */
  image: string;
  serverType: string;
  /** The port srcds listens on in the image (game, A2S and RCON). */
  gamePort?: number;
  /** Bound on every API call. */
  timeoutMs?: number;
  /** What the plugin on the server needs to call the league back. */
  plugin: () => { apiUrl: string; secret: string } | undefined;
  /** The server's clock: how old the cached region list is. */
  clock: () => number;
}

interface HetznerServer {
  id: number;
  status: string;
  public_net?: { ipv4?: { ip?: string } | null };
}

export class HetznerApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

const REGION_CACHE_MS = 5 * 60_000;

/**
 * Hetzner Cloud (https://docs.hetzner.cloud/): locations are the regions; a reservation is a
 * server created from the game-server snapshot, configured by cloud-init user data; its status
 * and deletion are the server resource's. The server's public IPv4 on the game port is the
 * connect and RCON address.
 */
export class HetznerProvider implements CloudProvider {
  readonly kind = 'hetzner' as const;
  private regionCache: { at: number; regions: Region[] } | null = null;

  constructor(private readonly options: HetznerOptions) {}

  async regions(): Promise<Region[]> {
    if (this.regionCache && this.options.clock() - this.regionCache.at < REGION_CACHE_MS) return this.regionCache.regions;
    const { locations } = await this.call<{ locations: Array<{ name: string; description: string; city: string }> }>('GET', '/locations');
    const regions = locations.map((l) => ({ id: l.name, name: `${l.city} (${l.description})` }));
    this.regionCache = { at: this.options.clock(), regions };
    return regions;
  }

  async create(request: ProvisionRequest): Promise<{ ref: string }> {
    const { server } = await this.call<{ server: HetznerServer }>('POST', '/servers', {
      name: `league-reservation-${request.reservationId}`,
      server_type: this.options.serverType,
      image: this.options.image,
      location: request.region,
      start_after_create: true,
      labels: { 'league-reservation': String(request.reservationId) },
      user_data: this.userData(request),
    });
    return { ref: String(server.id) };
  }

  async status(ref: string): Promise<HostedServer> {
    try {
      const { server } = await this.call<{ server: HetznerServer }>('GET', `/servers/${encodeURIComponent(ref)}`);
      const ip = server.public_net?.ipv4?.ip;
      const address = ip ? `${ip}:${this.options.gamePort ?? 27015}` : null;
      const state = server.status === 'running' ? 'running' : server.status === 'deleting' ? 'gone' : 'starting';
      return { state, connectAddress: address, rconAddress: address };
    } catch (error) {
      if (error instanceof HetznerApiError && error.status === 404) return { state: 'gone', connectAddress: null, rconAddress: null };
      throw error;
    }
  }

  async destroy(ref: string): Promise<void> {
    try {
      await this.call('DELETE', `/servers/${encodeURIComponent(ref)}`);
    } catch (error) {
      if (error instanceof HetznerApiError && error.status === 404) return;
      throw error;
    }
  }

  async close(): Promise<void> {}

  /** cloud-init: the reservation's settings as an env file the image's srcds unit reads. */
  private userData(request: ProvisionRequest): string {
    const link = this.options.plugin();
    const env: Record<string, string> = {
      LEAGUE_RESERVATION_ID: String(request.reservationId),
      SRCDS_MAP: request.map,
      SRCDS_PRESET: request.configPreset,
      SRCDS_RCON_PASSWORD: request.rconPassword,
      SRCDS_PASSWORD: request.serverPassword ?? '',
      SRCDS_PORT: String(this.options.gamePort ?? 27015),
      ...(link ? { LEAGUE_API_URL: link.apiUrl, LEAGUE_PLUGIN_SECRET: link.secret } : {}),
    };
    const content = Object.entries(env).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join('\n');
    return [
      '#cloud-config',
      'write_files:',
      '  - path: /etc/league/reservation.env',
      "    permissions: '0600'",
      '    content: |',
      ...content.split('\n').map((line) => `      ${line}`),
      'runcmd:',
      '  - [systemctl, restart, srcds]',
      '',
    ].join('\n');
  }

  private async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.options.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.options.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
    });
    const text = await response.text();
    const json = text ? JSON.parse(text) : {};
    if (!response.ok) {
      const error = (json as { error?: { code?: string; message?: string } }).error;
      throw new HetznerApiError(response.status, error?.code ?? 'unknown', `Hetzner ${method} ${path}: ${response.status} ${error?.message ?? ''}`.trim());
    }
    return json as T;
  }
}

/** Reads back the env file of our user data (the fake host and tests use it). */
export function reservationEnvOf(userData: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of userData.split('\n')) {
    const match = /^\s+([A-Z_]+)=(".*")$/.exec(line);
    if (match) env[match[1]] = JSON.parse(match[2]);
  }
  return env;
}
