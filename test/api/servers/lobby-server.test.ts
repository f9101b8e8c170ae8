import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalProvider } from '../../../src/servers/local-provider';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { draftAll, lobbyAt, nextPlatformId, Player } from '../lobby/lobby-client';
import { api, freeBody, until } from './servers-client';

const SECRET = 'plugin-secret-for-tests-0123456789';
let server: TestServerWithLogin;

beforeAll(async () => {
  server = await startTestServerWithLogin({ PLUGIN_SECRET: SECRET }, { serverTiming: { startPollMs: 50 } });
}, 60_000);
afterAll(() => server?.close());

async function player(): Promise<Player> {
  const { cookie, user } = await server.login(nextPlatformId());
  return new Player(server.url, cookie, user);
}

async function activeReservation(host: Player, body: Record<string, unknown> = {}): Promise<number> {
  const made = await host.post('/api/servers', freeBody(body));
  expect(made.status).toBe(201);
  await until(() => host.get(`/api/servers/${made.body.id}`), (r) => r.body.status === 'active');
  return made.body.id;
}

const simulatorOf = async (id: number) => {
  const record = (await server.server.servers.repo.byId(id))!;
  return (server.server.servers.provider as LocalProvider).simulator(record.providerRef!)!;
};
const plugin = (route: string, body: unknown, secret = SECRET) =>
  api(server, `/api/servers/plugin/${route}`, { method: 'POST', headers: { 'x-svc-plugin-secret': secret }, body });

describe('a lobby on a reserved server', () => {
  it('plays the whole flow: pin, rcon-exec, go live configures the server, who returns the roster, the plugin reports the log', async () => {
    const host = await player();
    const others = [await player(), await player(), await player()];
    const id = await activeReservation(host, { server_password: 'pugpass1' });

    const status = await host.post(`/api/lobbies/NOPE99/rcon-exec`, { command: 'status' });
    expect(status.status).toBe(404);

    const created = await host.post('/api/lobbies', { format: 'ultiduo', reservation_id: id, map_pool: ['koth_product_final', 'cp_process_final'] });
    expect(created.status).toBe(200);
    const code: string = created.body.code;
    expect(created.body.lobby.reservation_id).toBe(id);
    expect((await host.get(`/api/servers/${id}`)).body.lobby_code).toBe(code);

    const exec = await host.post(`/api/lobbies/${code}/rcon-exec`, { command: 'status' });
    expect(exec.status).toBe(200);
    expect(exec.body.output).toContain(`hostname: League reservation #${id}`);
    expect(exec.body.output).toContain('map     : cp_process_final');
    expect(await server.server.servers.logs.audited(id)).toEqual([{ command: 'status', output: exec.body.output, outcome: 'ok', userId: host.id }]);

    const check = await host.post(`/api/lobbies/${code}/check-server`);
    expect(check.body).toEqual({ online: true, players: 0, max_players: 24, map: 'cp_process_final' });
    expect((await api(server, `/api/lobbies/${code}/log-status`)).body).toEqual({ status: 'pending', log_url: null, demo_url: null });

    for (const p of others) await p.command(code, 'join');
    for (const p of [host, ...others]) await p.command(code, 'vote-map', { map: 'koth_product_final' });
    await host.command(code, 'start-draft');
    await draftAll(server.url, code, [host, ...others]);
    await host.command(code, 'force-start');
    const live = await lobbyAt(server.url, code);
    expect(live.phase).toBe('live');

    const sim = await simulatorOf(id);
    await until(async () => sim.game.roster.length, (n) => n === 4);
    expect(sim.game.map).toBe('koth_product_final');
    expect(sim.game.preset).toBe('etf2l_6v6');
    expect(sim.game.password).toBe('pugpass1');
    const who = await plugin('who', { reservation_id: id });
    expect(who.status).toBe(200);
    expect(who.body.lobby_code).toBe(code);
    const seated = [...live.teams.red.map((s) => ({ ...s, team: 'red' })), ...live.teams.blu.map((s) => ({ ...s, team: 'blu' }))];
    expect(who.body.players).toEqual(
      seated.map((s) => ({ user_id: s.user!.id, platform_id: s.user!.platform_id, username: s.user!.username, team: s.team, class: s.class })),
    );
    expect(sim.game.roster.map((p) => p.platform_id).sort()).toEqual(who.body.players.map((p: { platform_id: string }) => p.platform_id).sort());

    const fetched = await host.post(`/api/lobbies/${code}/fetch-log`, {});
    expect(fetched).toEqual({ status: 200, body: { ok: true } });
    const logStatus = await api(server, `/api/lobbies/${code}/log-status`);
    expect(logStatus.body.status).toBe('ready');
    const log = await fetch(logStatus.body.log_url).then((r) => r.text());
    expect(log).toContain('Loading map "koth_product_final"');
  });

  it('refuses to pin another user’s reservation (403) and an unknown one (404)', async () => {
    const owner = await player();
    const other = await player();
    const id = await activeReservation(owner, { region: 'us-east' });
    expect((await other.post('/api/lobbies', { reservation_id: id })).status).toBe(403);
    expect((await other.post('/api/lobbies', { reservation_id: 999_999 })).status).toBe(404);
    await owner.send('DELETE', `/api/servers/${id}`);
  });

  it('rcon-exec is the host’s or an admin’s (403), needs an active server (409) and answers 504 when the server is silent', async () => {
    const host = await player();
    const guest = await player();
    const plain = await host.post('/api/lobbies', {});
    expect((await host.post(`/api/lobbies/${plain.body.code}/rcon-exec`, { command: 'status' })).status).toBe(409);
    expect((await host.post(`/api/lobbies/${plain.body.code}/check-server`)).body).toEqual({ online: false, players: 0, max_players: 0, map: null });
    await host.send('DELETE', `/api/lobbies/${plain.body.code}`);
    const id = await activeReservation(host);
    const code = (await host.post('/api/lobbies', { reservation_id: id })).body.code;
    expect((await guest.post(`/api/lobbies/${code}/rcon-exec`, { command: 'status' })).status).toBe(403);
    expect((await host.post(`/api/lobbies/${code}/rcon-exec`, { command: '' })).status).toBe(400);
    // The server goes silent (its process is gone) while the record still says active.
    const sim = await simulatorOf(id);
    await sim.close();
    const silent = await host.post(`/api/lobbies/${code}/rcon-exec`, { command: 'status' });
    expect(silent.status).toBe(504);
    expect(silent.body.error).toEqual(expect.any(String));
    expect((await host.post(`/api/lobbies/${code}/check-server`)).body).toEqual({ online: false, players: 0, max_players: 0, map: null });
    expect((await server.server.servers.logs.audited(id)).at(-1)).toMatchObject({ command: 'status', outcome: 'no_answer' });
  });

  it('submit-log takes an http(s) URL from the host and makes the log ready', async () => {
    const host = await player();
    const id = await activeReservation(host);
    const code = (await host.post('/api/lobbies', { reservation_id: id })).body.code;
    expect((await host.post(`/api/lobbies/${code}/submit-log`, { log_url: 'ftp://logs.example/1' })).status).toBe(400);
    expect((await host.post(`/api/lobbies/${code}/submit-log`, { log_url: 'https://logs.example/1' })).status).toBe(200);
    expect((await api(server, `/api/lobbies/${code}/log-status`)).body).toEqual({ status: 'ready', log_url: 'https://logs.example/1', demo_url: null });
  });

  it('plugin routes need the secret (401) and extend only within the tier maximum (409)', async () => {
    const host = await player();
    const id = await activeReservation(host, { duration_minutes: 90 });
    expect((await plugin('extend', { reservation_id: id, minutes: 10 }, 'wrong-secret-wrong-secret')).status).toBe(401);
    expect((await api(server, '/api/servers/plugin/who', { method: 'POST', body: { reservation_id: id } })).status).toBe(401);
    const before = (await host.get(`/api/servers/${id}`)).body.ends_at;
    const extended = await plugin('extend', { reservation_id: id, minutes: 30 });
    expect(extended.status).toBe(200);
    expect(Date.parse(extended.body.new_expires_at) - Date.parse(before)).toBe(30 * 60_000);
    expect((await plugin('extend', { reservation_id: id, minutes: 1 })).status).toBe(409);
    expect((await plugin('extend', { reservation_id: id, minutes: 61 })).status).toBe(400);
    expect((await plugin('who', { reservation_id: 999_999 })).status).toBe(404);
  });
});
