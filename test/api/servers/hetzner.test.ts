import { queryGameServerInfo } from 'steam-server-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reservationEnvOf } from '../../../src/servers/hetzner-provider';
import { startFakeHetzner, type FakeHetzner } from '../../fakes/fake-hetzner';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { freePort } from '../../support/spawn-server';
import { draftAll, nextPlatformId, Player } from '../lobby/lobby-client';
import { api, freeBody, until } from './servers-client';

const SECRET = 'plugin-secret-for-tests-0123456789';
let hetzner: FakeHetzner;
let server: TestServerWithLogin;

beforeAll(async () => {
  const gamePort = await freePort();
  hetzner = await startFakeHetzner({ gamePort });
  server = await startTestServerWithLogin(
    {
      CLOUD_PROVIDER: 'hetzner', HETZNER_API_URL: hetzner.url, HETZNER_API_TOKEN: hetzner.token,
      HETZNER_GAME_PORT: String(gamePort),
      PLUGIN_SECRET: SECRET,
    },
    { serverTiming: { startPollMs: 50, retryBaseMs: 50, providerTimeoutMs: 400, provisionAttempts: 3, provisionDeadlineMs: 3_000 } },
  );
}, 60_000);
afterAll(async () => {
  await server?.close();
  await hetzner?.close();
});

async function player(): Promise<Player> {
  const { cookie, user } = await server.login(nextPlatformId());
  return new Player(server.url, cookie, user);
}
const statusOf = async (id: number) => (await server.server.servers.repo.byId(id))!.status;

describe('reservations on Hetzner Cloud (against a fake of its API)', () => {
  it('lists Hetzner locations as regions', async () => {
    const regions = await api(server, '/api/servers/regions');
    expect(regions.body.map((r: { id: string }) => r.id)).toEqual(['fsn1', 'nbg1', 'hel1', 'ash']);
    expect(regions.body[0]).toEqual({ id: 'fsn1', name: 'Falkenstein (Falkenstein DC Park 1)', capacity: 8, available: 8 });
  });

  it('plays the whole flow on a cloud server: active with A2S, rcon-exec, a pinned lobby goes live, who, the plugin reports the log, DELETE deletes the server', async () => {
    const host = await player();
    const others = [await player(), await player(), await player()];
    const made = await host.post('/api/servers', freeBody({ region: 'fsn1' }));
    expect(made.status).toBe(201);
    const active = await until(() => host.get(`/api/servers/${made.body.id}`), (r) => r.body.status === 'active');
    const hosted = [...hetzner.servers.values()].find((s) => s.name === `league-reservation-${made.body.id}`)!;
    expect(active.body.connect_address).toBe(`${hosted.ip}:${hosted.sim!.queryPort}`);
    expect((await queryGameServerInfo(active.body.connect_address, 1, 2_000)).map).toBe('cp_process_final');
    expect(reservationEnvOf(hosted.userData)).toMatchObject({ SRCDS_MAP: 'cp_process_final', SRCDS_PRESET: 'etf2l_6v6', LEAGUE_RESERVATION_ID: String(made.body.id) });

    const code = (await host.post('/api/lobbies', { format: 'ultiduo', reservation_id: made.body.id })).body.code;
    expect((await host.post(`/api/lobbies/${code}/rcon-exec`, { command: 'status' })).body.output).toContain(`hostname: league-reservation-${made.body.id}`);
    for (const p of others) await p.command(code, 'join');
    await host.command(code, 'start-draft');
    await draftAll(server.url, code, [host, ...others]);
    await host.command(code, 'force-start');
    await until(async () => hosted.sim!.game.roster.length, (n) => n === 4);
    const who = await api(server, '/api/servers/plugin/who', { method: 'POST', headers: { 'x-svc-plugin-secret': SECRET }, body: { reservation_id: made.body.id } });
    expect(who.body.players).toHaveLength(4);
    expect((await host.post(`/api/lobbies/${code}/fetch-log`, {})).status).toBe(200);
    expect((await api(server, `/api/lobbies/${code}/log-status`)).body.status).toBe('ready');

    expect((await host.send('DELETE', `/api/servers/${made.body.id}`)).status).toBe(204);
    expect(hetzner.servers.has(Number((await server.server.servers.repo.byId(made.body.id))!.providerRef))).toBe(false);
    expect(hetzner.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });

  it('retries when the host answers 5xx and goes active once it recovers', async () => {
    const owner = await player();
    hetzner.failCreates(2);
    const made = await owner.post('/api/servers', freeBody({ region: 'nbg1' }));
    await until(() => statusOf(made.body.id), (s) => s === 'active');
    expect((await server.server.servers.repo.byId(made.body.id))!.provisionAttempts).toBe(2);
    await owner.send('DELETE', `/api/servers/${made.body.id}`);
  });

  it('gives up with failed after its attempts when the host keeps failing', async () => {
    const owner = await player();
    hetzner.failCreates(10);
    const made = await owner.post('/api/servers', freeBody({ region: 'hel1' }));
    await until(() => statusOf(made.body.id), (s) => s === 'failed');
    hetzner.failCreates(0);
    const log = await server.server.servers.repo.statusLog(made.body.id);
    expect(log.at(-1)!.reason).toMatch(/gave up after 3 attempts: .*503/);
  });

  it('leaves nothing in provisioning when the host never answers', async () => {
    const owner = await player();
    hetzner.hang(true);
    try {
      const made = await owner.post('/api/servers', freeBody({ region: 'ash' }));
      expect(made.status).toBe(201);
      await until(() => statusOf(made.body.id), (s) => s === 'failed', 10_000);
    } finally {
      hetzner.hang(false);
    }
  });
});
