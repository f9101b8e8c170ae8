import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawSocketIoClient, updateVersion } from '../../bench/realtime-raw-client';
import type { LobbyDetail } from '../../schema/lobby';
import { startTwoInstances, type Instance, type TwoInstances } from '../support/two-instances';
import { poll } from '../support/poll';

/*
 * Issue 10 §3: two server processes sharing Redis and Postgres, commands sent to both at once,
 * SUBSCRIBERS sockets spread over both, UPDATES lobby updates: every subscriber must see each
 * version of its lobby exactly once, strictly in order. Subscribers are raw socket.io clients
 * (bench/realtime-raw-client.ts) that read only the version out of each frame, so a million
 * deliveries cost this process little; commands go over kept-alive node:http.
 */
const shared = Boolean(process.env.REDIS_URL && process.env.DATABASE_URL);
const LOBBIES = 4;
const MEMBERS = 12;
const SUBSCRIBERS = 500;
const UPDATES = 10_000;
const DELIVERY_WAIT_MS = 60_000;

interface Watch {
  code: string;
  last: number;
  received: number;
  backwards: number;
  skipped: number;
}

describe.skipIf(!shared)('lobby updates across two instances', () => {
  let instances: TwoInstances;
  let servers: Instance[] = [];
  const clients: RawSocketIoClient[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });

  beforeAll(async () => {
    // A few test users drive 10,000 commands in seconds, far past what a real player sends; all
    // 500 subscribers come from 127.0.0.1, past the per-address socket limit.
    instances = await startTwoInstances({ COMMAND_RATE_LIMIT: '9999999', SOCKETS_PER_ADDRESS: '9999999' });
    ({ servers } = instances);
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    agent.destroy();
    await instances?.close();
  });

  it(`delivers ${UPDATES.toLocaleString('en')} updates from both instances to ${SUBSCRIBERS} subscribers on both, each in strictly increasing version order, none missing`, async () => {
    const [a, b] = servers;
    const post = (url: string, cookie: string, body: unknown) => postJson(agent, url, cookie, body);
    let nextUser = 0;
    const login = async () => {
      nextUser += 1;
      return (await a.login(`7656119${String(process.pid % 100_000).padStart(5, '0')}${String(nextUser).padStart(5, '0')}`)).cookie;
    };

    // LOBBIES 6v6 lobbies of MEMBERS, created on A and joined on B.
    const lobbies: Array<{ code: string; version: number; maps: string[]; members: string[] }> = [];
    for (let i = 0; i < LOBBIES; i++) {
      const members = [];
      for (let m = 0; m < MEMBERS; m++) members.push(await login());
      const created = (await post(`${a.url}/api/lobbies/`, members[0], { format: '6v6', name: `order ${i}` })).body as { code: string; lobby: LobbyDetail };
      for (const member of members.slice(1)) expect((await post(`${b.url}/api/lobbies/${created.code}/join`, member, {})).status).toBe(200);
      lobbies.push({ code: created.code, version: created.lobby.version + MEMBERS - 1, maps: created.lobby.map_pool, members });
    }

    // Subscribers: alternately on A and B, each watching one lobby.
    const watches: Watch[] = [];
    for (let i = 0; i < SUBSCRIBERS; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, SUBSCRIBERS - i) }, async (_, j) => {
          const n = i + j;
          const lobby = lobbies[n % LOBBIES];
          const client = await RawSocketIoClient.connect(servers[n % 2].url);
          clients.push(client);
          const ack = (await client.emitWithAck('lobby:subscribe', { code: lobby.code })) as { lobby: LobbyDetail };
          const watch: Watch = { code: lobby.code, last: ack.lobby.version, received: 0, backwards: 0, skipped: 0 };
          client.onEvent = (frame) => {
            const version = updateVersion(frame);
            if (version === null) return;
            watch.received += 1;
            if (version <= watch.last) watch.backwards += 1;
            else {
              watch.skipped += version - watch.last - 1;
              watch.last = version;
            }
          };
          return watch;
        }),
      );
      watches.push(...batch);
    }
    for (const lobby of lobbies) expect(watches.filter((w) => w.code === lobby.code).every((w) => w.last === lobby.version)).toBe(true);

    // Every member flips its map vote (always a change: one version each), half of each lobby
    // through A and half through B, all at once, until UPDATES commands have been answered.
    let answered = 0;
    await Promise.all(
      lobbies.flatMap((lobby) =>
        lobby.members.map(async (cookie, m) => {
          const server = servers[m % 2];
          for (let flip = 1; answered < UPDATES; flip++) {
            answered += 1;
            const answer = await post(`${server.url}/api/lobbies/${lobby.code}/vote-map`, cookie, { map: lobby.maps[flip % 2] });
            if (answer.status !== 200) throw new Error(`vote-map answered ${answer.status}: ${JSON.stringify(answer.body)}`);
          }
        }),
      ),
    );
    let total = 0;
    for (const lobby of lobbies) {
      const detail = (await getJson(agent, `${a.url}/api/lobbies/${lobby.code}`)) as LobbyDetail;
      total += detail.version - lobby.version;
      lobby.version = detail.version;
    }
    expect(total).toBe(answered);

    const finalOf = new Map(lobbies.map((lobby) => [lobby.code, lobby.version]));
    // Past the wait, the assertion below says what is missing, and what came backwards.
    await poll(() => watches, (all) => all.every((w) => w.last >= finalOf.get(w.code)!), { withinMs: DELIVERY_WAIT_MS, everyMs: 50 }).catch(() => undefined);

    const missing = watches.reduce((sum, w) => sum + w.skipped + (finalOf.get(w.code)! - w.last), 0);
    const backwards = watches.reduce((sum, w) => sum + w.backwards, 0);
    const deliveries = watches.reduce((sum, w) => sum + w.received, 0);
    expect({ backwards, missing, deliveries }).toEqual({ backwards: 0, missing: 0, deliveries: (answered * SUBSCRIBERS) / LOBBIES });
  }, 300_000);
});

function postJson(agent: Agent, url: string, cookie: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), cookie },
    });
    req.on('error', reject);
    req.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }));
    });
    req.end(payload);
  });
}

function getJson(agent: Agent, url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
    })
      .on('error', reject)
      .end();
  });
}
