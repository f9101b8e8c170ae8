import type { IncomingMessage, ServerResponse } from 'node:http';
import { startGameServerSimulator, type RunningSimulator } from '../../src/integrations/game-server-simulator/game-server-simulator';
import { reservationEnvOf } from '../../src/servers/hetzner-provider';
import { listenLocally, type LocalServer } from './local-http-server';

/*
 * Hetzner Cloud's API as its documentation shows it (https://docs.hetzner.cloud/): bearer token,
 * GET /locations, POST /servers (201 {server, action, next_actions, root_password}),
 * GET /servers/{id} (status initializing -> running), DELETE /servers/{id} ({action}); errors
 * as {error: {code, message, details}}. Each server is a game-server simulator on its own
 * loopback address (127.0.0.x) at the image's game port, configured from the cloud-init user data.
 */
export interface FakeHetzner extends LocalServer {
  token: string;
  servers: Map<number, { name: string; ip: string; status: string; userData: string; sim: RunningSimulator | null; gets: number }>;
  requests: Array<{ method: string; path: string }>;
  /** The next `n` POST /servers answer 503. */
  failCreates(n: number): void;
  /** While on, every request is accepted and never answered. */
  hang(on: boolean): void;
}

const LOCATIONS = [
  { id: 1, name: 'fsn1', description: 'Falkenstein DC Park 1', country: 'DE', city: 'Falkenstein', latitude: 50.47612, longitude: 12.370071, network_zone: 'eu-central' },
  { id: 2, name: 'nbg1', description: 'Nuremberg DC Park 1', country: 'DE', city: 'Nuremberg', latitude: 49.452102, longitude: 11.076665, network_zone: 'eu-central' },
  { id: 3, name: 'hel1', description: 'Helsinki DC Park 1', country: 'FI', city: 'Helsinki', latitude: 60.169855, longitude: 24.938379, network_zone: 'eu-central' },
  { id: 4, name: 'ash', description: 'Ashburn, VA', country: 'US', city: 'Ashburn, VA', latitude: 39.0437, longitude: -77.4875, network_zone: 'us-east' },
];

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};
const apiError = (res: ServerResponse, status: number, code: string, message: string) => json(res, status, { error: { code, message, details: {} } });

async function body(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
}

export async function startFakeHetzner(options: { gamePort: number; token?: string }): Promise<FakeHetzner> {
  const token = options.token ?? 'hetzner-test-token';
  const servers: FakeHetzner['servers'] = new Map();
  const requests: FakeHetzner['requests'] = [];
  let failures = 0;
  let hanging = false;
  let nextId = 1000;
  const action = (command: string, id: number) => ({ id: nextId++, command, status: 'running', progress: 0, started: new Date().toISOString(), finished: null, resources: [{ id, type: 'server' }], error: null });
  const serverJson = (id: number) => {
    const s = servers.get(id)!;
    return { id, name: s.name, status: s.status, created: new Date().toISOString(), public_net: { ipv4: { ip: s.ip, blocked: false, dns_ptr: `static.${s.ip}.clients.your-server.de` }, ipv6: null, floating_ips: [] }, labels: {} };
  };

  const http = await listenLocally(async (req, res, url) => {
    requests.push({ method: req.method!, path: url.pathname });
    if (hanging) return new Promise<void>(() => undefined);
    if (req.headers.authorization !== `Bearer ${token}`) return apiError(res, 401, 'unauthorized', 'unable to authenticate');
    const serverId = /^\/servers\/(\d+)$/.exec(url.pathname);
    if (req.method === 'GET' && url.pathname === '/locations') return json(res, 200, { locations: LOCATIONS, meta: { pagination: { page: 1, per_page: 25, total_entries: LOCATIONS.length } } });
    if (req.method === 'POST' && url.pathname === '/servers') {
      const input = await body(req);
      if (failures > 0) {
        failures--;
        return apiError(res, 503, 'unavailable', 'service temporarily unavailable');
      }
      if (!input.name || !input.server_type || !input.image || !LOCATIONS.some((l) => l.name === input.location)) {
        return apiError(res, 422, 'invalid_input', 'invalid input in fields name, server_type, image or location');
      }
      const id = nextId++;
      const ip = `127.0.0.${10 + (id % 200)}`;
      const env = reservationEnvOf(String(input.user_data ?? ''));
      servers.set(id, { name: input.name, ip, status: 'initializing', userData: input.user_data, sim: null, gets: 0 });
      // "Booting": the image's srcds comes up with the settings the user data wrote.
      servers.get(id)!.sim = await startGameServerSimulator({
        host: ip, port: options.gamePort, map: env.SRCDS_MAP, rconPassword: env.SRCDS_RCON_PASSWORD, serverPassword: env.SRCDS_PASSWORD || undefined,
        hostname: input.name,
        plugin: env.LEAGUE_API_URL ? { apiUrl: env.LEAGUE_API_URL, secret: env.LEAGUE_PLUGIN_SECRET, reservationId: Number(env.LEAGUE_RESERVATION_ID) } : undefined,
      });
      await servers.get(id)!.sim!.game.execute(`exec ${env.SRCDS_PRESET}`);
      return json(res, 201, { server: serverJson(id), action: action('create_server', id), next_actions: [action('start_server', id)], root_password: null });
    }
    if (serverId && servers.has(Number(serverId[1]))) {
      const id = Number(serverId[1]);
      const s = servers.get(id)!;
      if (req.method === 'GET') {
        // The first look sees it still initializing, as a real create does for a while.
        if (s.gets++ >= 1) s.status = 'running';
        return json(res, 200, { server: serverJson(id) });
      }
      if (req.method === 'DELETE') {
        await s.sim?.close();
        servers.delete(id);
        return json(res, 200, { action: action('delete_server', id) });
      }
    }
    if (serverId) return apiError(res, 404, 'not_found', 'server not found');
    return apiError(res, 404, 'not_found', 'not found');
  });

  return {
    ...http,
    token,
    servers,
    requests,
    failCreates: (n) => (failures = n),
    hang: (on) => (hanging = on),
    async close() {
      hanging = false;
      for (const s of servers.values()) await s.sim?.close();
      await http.close();
    },
  };
}
