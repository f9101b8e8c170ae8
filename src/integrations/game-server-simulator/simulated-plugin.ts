import { createServer, type Server } from 'node:http';
import type { PluginHooks, RosterEntry } from './simulated-game';

export interface PluginLink {
  /** The league's base URL and the plugin secret, as the real plugin's config file holds them. */
  apiUrl: string;
  secret: string;
  reservationId: number;
}

/**
 * The league's in-game plugin as the simulator runs it: it calls the plugin routes over HTTP
 * exactly as the SourceMod plugin would (`who` for the roster, `report-match` with a log URL) and
 * publishes uploaded logs on a small HTTP server of its own, standing in for the log host.
 */
export class SimulatedPlugin implements PluginHooks {
  private readonly logs: string[] = [];
  private logServer: Server | null = null;
  private logBase = '';

  constructor(private readonly link: PluginLink, private readonly host: string) {}

  async start(): Promise<void> {
    this.logServer = createServer((req, res) => {
      const match = /^\/logs\/(\d+)\.log$/.exec(req.url ?? '');
      const log = match ? this.logs[Number(match[1])] : undefined;
      if (log === undefined) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(log);
    });
    await new Promise<void>((resolve) => this.logServer!.listen(0, this.host, () => resolve()));
    const address = this.logServer.address();
    this.logBase = `http://${this.host}:${typeof address === 'object' && address ? address.port : 0}`;
  }

  async close(): Promise<void> {
    if (this.logServer) await new Promise<void>((resolve) => this.logServer!.close(() => resolve()));
  }

  async syncRoster(): Promise<RosterEntry[]> {
    const answer = await this.call('who', { reservation_id: this.link.reservationId });
    return (answer as { players: RosterEntry[] }).players;
  }

  async uploadLog(log: string): Promise<string> {
    this.logs.push(log);
    const logUrl = `${this.logBase}/logs/${this.logs.length - 1}.log`;
    await this.call('report-match', { reservation_id: this.link.reservationId, log_url: logUrl });
    return logUrl;
  }

  private async call(route: string, body: object): Promise<unknown> {
    const response = await fetch(`${this.link.apiUrl}/api/servers/plugin/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-plugin-secret': this.link.secret },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) throw new Error(`plugin ${route} answered ${response.status}`);
    return response.json();
  }
}
