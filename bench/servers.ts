import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startGameServerSimulator } from '../src/integrations/game-server-simulator/game-server-simulator';
import { queryInfo } from '../src/integrations/source-query/a2s-client';
import { startFakeSteamOpenId } from '../test/fakes/fake-steam-openid';
import { loginAs } from '../test/support/login';
import { deleteKeysWithPrefix } from '../test/support/redis-prefix';
import { createTestDatabase } from '../test/support/test-database';
import { startBenchServer, type BenchServer } from './bench-server';

/*
 * Game server reservations through the door users use (HTTP with session cookies):
 * 1. create-to-active on the local driver: POST /api/servers until GET shows `active` (the
 *    lifecycle provisioned a simulator and saw it answer A2S), beside the baseline of starting a
 *    simulator and getting its first A2S answer directly, measured in the same run;
 * 2. reservations created per second under the capacity race: users create at once through two
 *    server processes sharing Postgres and Redis against a region smaller than the crowd, beside
 *    an authenticated read (GET /api/servers/mine) at the same concurrency as the baseline; the
 *    region must end with exactly its capacity booked.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ACTIVE_SAMPLES = Number(process.env.BENCH_SERVER_SAMPLES ?? 10);
const RACE_USERS = Number(process.env.BENCH_RACE_USERS ?? 120);
const RACE_CAPACITY = 40;
const CONCURRENCY = 24;

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function json(url: string, init: RequestInit & { cookie: string }): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { ...init, headers: { cookie: init.cookie, ...(init.body ? { 'content-type': 'application/json' } : {}) } });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const body = (region: string) => JSON.stringify({ region, map: 'cp_process_final', config_preset: 'etf2l_6v6', rcon_password: 'bench-rcon-1', duration_minutes: 30 });

async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

export async function benchServers(): Promise<string[]> {
  const lines: string[] = [];
  const database = await createTestDatabase();
  const provider = await startFakeSteamOpenId();
  const prefix = `bs${randomBytes(4).toString('hex')}:`;
  const env = {
    DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: prefix, SESSION_SECRET: randomBytes(32).toString('base64url'),
    STEAM_OPENID_URL: provider.url, SEED_DEMO_DATA: 'never', SERVER_REGION_CAPACITY: String(RACE_CAPACITY),
  };
  const servers: BenchServer[] = [];
  try {
    servers.push(await startBenchServer(env), await startBenchServer(env));
    const [a, b] = servers;
    let platform = 76561198700000000n;
    const users = [];
    for (let i = 0; i < RACE_USERS + ACTIVE_SAMPLES; i++) users.push(await loginAs(a, provider, String(platform++)));

    // 1. create-to-active, one at a time, each by its own user in eu-central.
    const baseline: number[] = [];
    for (let i = 0; i < ACTIVE_SAMPLES; i++) {
      const started = performance.now();
      const sim = await startGameServerSimulator({ map: 'cp_process_final', rconPassword: 'bench-rcon-1' });
      await queryInfo({ host: sim.host, port: sim.queryPort });
      baseline.push(performance.now() - started);
      await sim.close();
    }
    const toActive: number[] = [];
    for (const user of users.slice(0, ACTIVE_SAMPLES)) {
      const started = performance.now();
      const made = await json(`${a.url}/api/servers`, { method: 'POST', cookie: user.cookie, body: body('eu-central') });
      if (made.status !== 201) throw new Error(`create answered ${made.status}`);
      for (;;) {
        const seen = await json(`${a.url}/api/servers/${made.body.id}`, { cookie: user.cookie });
        if (seen.body.status === 'active') break;
        if (performance.now() - started > 30_000) throw new Error('reservation did not go active in 30 s');
        await new Promise((r) => setTimeout(r, 10));
      }
      toActive.push(performance.now() - started);
      await json(`${a.url}/api/servers/${made.body.id}`, { method: 'DELETE', cookie: user.cookie });
    }
    lines.push(`  create-to-active (local driver, ${ACTIVE_SAMPLES} reservations): median ${ms(quantile(toActive, 0.5))}, p90 ${ms(quantile(toActive, 0.9))}`);
    lines.push(`    baseline, simulator start to first A2S answer without the site: median ${ms(quantile(baseline, 0.5))}, p90 ${ms(quantile(baseline, 0.9))}`);

    // 2. the race: every remaining user creates in us-east at once, alternating instances.
    const racers = users.slice(ACTIVE_SAMPLES);
    const readStart = performance.now();
    await pool(racers, CONCURRENCY, async (u) => {
      const i = racers.indexOf(u);
      await json(`${(i % 2 ? b : a).url}/api/servers/mine`, { cookie: u.cookie });
    });
    const readRate = racers.length / ((performance.now() - readStart) / 1000);
    const statuses = new Map<number, number>();
    const raceStart = performance.now();
    await pool(racers, CONCURRENCY, async (u) => {
      const i = racers.indexOf(u);
      const answer = await json(`${(i % 2 ? b : a).url}/api/servers`, { method: 'POST', cookie: u.cookie, body: body('us-east') });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    });
    const raceSeconds = (performance.now() - raceStart) / 1000;
    const [{ n }] = await database.db.em().execute(`select count(*)::int as n from server_reservations where region = 'us-east'`);
    lines.push(
      `  capacity race (${racers.length} users, ${CONCURRENCY} at a time, two instances, capacity ${RACE_CAPACITY}): ` +
        `${(racers.length / raceSeconds).toFixed(0)} create requests/s, ${((statuses.get(201) ?? 0) / raceSeconds).toFixed(0)} reservations created/s; ` +
        `answers ${[...statuses].map(([s, c]) => `${c}x${s}`).join(', ')}; booked ${n} of ${RACE_CAPACITY}${n === RACE_CAPACITY ? ' (never oversubscribed)' : ' (WRONG)'}`,
    );
    lines.push(`    baseline, GET /api/servers/mine at the same concurrency: ${readRate.toFixed(0)} requests/s`);
  } finally {
    for (const s of servers) await s.stop();
    await provider.close();
    await database.drop();
    await deleteKeysWithPrefix(REDIS_URL, prefix);
  }
  return lines;
}
