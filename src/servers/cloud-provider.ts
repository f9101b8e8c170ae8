/** A region servers can be reserved in (a cloud location). */
export interface Region {
  id: string;
  name: string;
}

export interface ProvisionRequest {
  reservationId: number;
  region: string;
  map: string;
  configPreset: string;
  rconPassword: string;
  serverPassword: string | null;
}

/** What the host says about a server it runs. `gone`: it has no such server (deleted or never made). */
export interface HostedServer {
  state: 'starting' | 'running' | 'gone';
  /** "host:port" players connect to and A2S answers on, once known. */
  connectAddress: string | null;
  /** "host:port" of RCON (TCP), once known. */
  rconAddress: string | null;
}

/**
 * The cloud host port. Calls may fail or hang like any remote API; the lifecycle bounds each
 * with a timeout and retries, so a driver simply throws on failure.
 */
export interface CloudProvider {
  readonly kind: 'local' | 'hetzner';
  regions(): Promise<Region[]>;
  /** Starts a server; answers the host's reference to it. */
  create(request: ProvisionRequest): Promise<{ ref: string }>;
  status(ref: string): Promise<HostedServer>;
  /** Destroys it; destroying one that is already gone succeeds. */
  destroy(ref: string): Promise<void>;
  close(): Promise<void>;
}
