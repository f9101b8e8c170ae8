import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryInfo } from '../../../src/integrations/source-query/a2s-client';
import { LocalProvider } from '../../../src/servers/local-provider';
import { startTestServerWithLogin, type LoggedIn, type TestServerWithLogin } from '../../support/login';
import { grantPremium, issueKey, movableClock } from '../identity/identity-fixtures';
import { api, freeBody, until } from './servers-client';

const MINUTE = 60_000;
let server: TestServerWithLogin;
const clock = movableClock();
let users: LoggedIn[] = [];

beforeAll(async () => {
  server = await startTestServerWithLogin({}, { clock: clock.now, serverTiming: { startPollMs: 50 } });
  // Logged in before the clock moves: the OpenID nonces are checked against the server's clock.
  for (let i = 0; i < 5; i++) users.push(await server.login(String(76561198500000000n + BigInt(i))));
}, 60_000);
afterAll(() => server?.close());

async function activeReservation(body: Record<string, unknown> = {}) {
  const { cookie } = users.pop()!;
  const made = await api(server, '/api/servers', { method: 'POST', cookie, body: freeBody(body) });
  expect(made.status).toBe(201);
  await until(() => api(server, `/api/servers/${made.body.id}`, { cookie }), (r) => r.body.status === 'active');
  const record = (await server.server.servers.repo.byId(made.body.id))!;
  const sim = (server.server.servers.provider as LocalProvider).simulator(record.providerRef!)!;
  return { id: made.body.id as number, cookie, sim };
}

const statusOf = async (id: number) => (await server.server.servers.repo.byId(id))!.status;
const lastReason = async (id: number) => (await server.server.servers.repo.statusLog(id)).at(-1)!.reason;

describe('reservation lifecycle', () => {
  it('warns the players over RCON ten minutes before the end', async () => {
    const { id, sim } = await activeReservation({ duration_minutes: 30 });
    expect(sim.game.history.some((c) => c.startsWith('say'))).toBe(false);
    clock.advanceMs(20 * MINUTE + 1_000);
    await until(async () => sim.game.history, (h) => h.some((c) => c.startsWith('say')));
    expect(sim.game.history.find((c) => c.startsWith('say'))).toMatch(/ends in (9|10) minutes/);
    expect(await statusOf(id)).toBe('active');
  });

  it('destroys the server when the reserved time is up', async () => {
    const { id, sim } = await activeReservation({ duration_minutes: 30 });
    clock.advanceMs(30 * MINUTE);
    await until(() => statusOf(id), (s) => s === 'ended');
    expect(await lastReason(id)).toBe('server destroyed');
    const log = await server.server.servers.repo.statusLog(id);
    expect(log.find((l) => l.status === 'ending')!.reason).toBe('reserved time is up');
    await expect(queryInfo({ host: sim.host, port: sim.queryPort, timeoutMs: 300 })).rejects.toThrow(/timed out/);
  });

  it('ends a free server after 45 minutes without players, not while someone plays', async () => {
    const { id, sim } = await activeReservation();
    const joined = await sim.game.execute('sim_join STEAM_0:1:42 alice');
    const before = (await server.server.servers.repo.byId(id))!.lastPlayersAt!;
    clock.advanceMs(46 * MINUTE);
    await until(async () => (await server.server.servers.repo.byId(id))!.lastPlayersAt!, (at) => at > before);
    expect(await statusOf(id)).toBe('active');
    await sim.game.execute(`kickid ${/userid (\d+)/.exec(joined)![1]}`);
    clock.advanceMs(46 * MINUTE);
    await until(() => statusOf(id), (s) => s === 'ended');
    const log = await server.server.servers.repo.statusLog(id);
    expect(log.find((l) => l.status === 'ending')!.reason).toBe('no players for 45 minutes');
  });

  it('provisions a scheduled reservation when its start time comes', async () => {
    const { cookie, user } = users.pop()!;
    await grantPremium(server, user.id, clock.now());
    const key = await issueKey(server, cookie, 'premium');
    const startsAt = new Date(clock.now() + 60 * MINUTE).toISOString();
    const made = await api(server, '/api/servers/schedule', { method: 'POST', bearer: key.raw, body: freeBody({ tier: 'premium', starts_at: startsAt, duration_minutes: 60 }) });
    expect(made.status).toBe(201);
    expect(await statusOf(made.body.id)).toBe('pending');
    clock.advanceMs(60 * MINUTE);
    await until(() => statusOf(made.body.id), (s) => s === 'active');
    expect((await server.server.servers.repo.statusLog(made.body.id)).map((l) => l.status)).toEqual(['pending', 'provisioning', 'active']);
  });
});

describe('match log window', () => {
  it('marks the log failed when no log arrived ten minutes after fetch-log asked for it', async () => {
    const { id, cookie } = await activeReservation();
    const created = await api(server, '/api/lobbies', { method: 'POST', cookie, body: { reservation_id: id } });
    const code = created.body.code;
    // This server has no PLUGIN_SECRET, so the simulator has no league plugin to upload with.
    expect((await api(server, `/api/lobbies/${code}/fetch-log`, { method: 'POST', cookie, body: {} })).status).toBe(200);
    expect((await api(server, `/api/lobbies/${code}/log-status`)).body.status).toBe('uploading');
    clock.advanceMs(10 * MINUTE);
    await until(async () => (await server.server.servers.logs.get(code))!.status, (s) => s === 'failed');
    expect((await api(server, `/api/lobbies/${code}/log-status`)).body).toEqual({ status: 'failed', log_url: null, demo_url: null });
  });
});
