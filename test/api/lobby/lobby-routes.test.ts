import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lobbyKey } from '../../../src/engine/live-keys';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { lobbyAt, nextPlatformId, Player } from './lobby-client';

let server: TestServerWithLogin;

async function player(): Promise<Player> {
  const { cookie, user } = await server.login(nextPlatformId());
  return new Player(server.url, cookie, user);
}

async function lobbyOf(host: Player, body: object = {}): Promise<string> {
  const created = await host.post('/api/lobbies', body);
  expect(created.status).toBe(200);
  return created.body.code;
}

beforeAll(async () => {
  server = await startTestServerWithLogin();
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('lobby routes', () => {
  it('answer 401 to a command without a session', async () => {
    const host = await player();
    const code = await lobbyOf(host);
    const anonymous = new Player(server.url, '', host.user);
    for (const [method, path] of [['POST', '/api/lobbies'], ['POST', `/api/lobbies/${code}/join`], ['DELETE', `/api/lobbies/${code}`], ['GET', `/api/lobbies/${code}/my-vote`]]) {
      expect((await anonymous.send(method, path, method === 'POST' ? {} : undefined)).status, `${method} ${path}`).toBe(401);
    }
  });

  it('answer a command spelled with a trailing slash as the contract spells it (the express binding serves it)', async () => {
    const host = await player();
    const guest = await player();
    const code = await lobbyOf(host);
    expect(await guest.post(`/api/lobbies/${code}/join/`)).toEqual({ status: 200, body: { ok: true } });
    expect((await guest.post(`/api/lobbies/${code}/join/`)).status).toBe((await guest.post(`/api/lobbies/${code}/join`)).status);
    const lobby = await host.get(`/api/lobbies/${code}`);
    expect(lobby.body.pool.map((p: { id: number }) => p.id)).toContain(guest.user.id);
  });

  it('answer 404 for an unknown lobby, on reads and commands alike', async () => {
    const someone = await player();
    for (const path of ['/api/lobbies/NOPE23', '/api/lobbies/NOPE23/votes', '/api/lobbies/NOPE23/chat', '/api/lobbies/no-such-code']) {
      expect((await someone.get(path)).status, path).toBe(404);
    }
    expect((await someone.post('/api/lobbies/NOPE23/join')).status).toBe(404);
  });

  it('create refuses an unknown format (400), a reservation id that is not the caller’s (404) and a second open lobby (409)', async () => {
    const host = await player();
    expect((await host.post('/api/lobbies', { format: '12v12' })).status).toBe(400);
    expect((await host.post('/api/lobbies', { reservation_id: 12 })).body).toEqual({ error: 'reservation not found' });
    await lobbyOf(host, { reservation_id: null });
    expect((await host.post('/api/lobbies', {})).status).toBe(409);
  });

  it('cancel is the host’s (403 otherwise), answers 204, and 409 the second time', async () => {
    const host = await player();
    const guest = await player();
    const code = await lobbyOf(host);
    await guest.command(code, 'join');
    expect((await guest.send('DELETE', `/api/lobbies/${code}`)).status).toBe(403);
    const cancelled = await host.send('DELETE', `/api/lobbies/${code}`);
    expect(cancelled).toEqual({ status: 204, body: null });
    expect((await host.send('DELETE', `/api/lobbies/${code}`)).status).toBe(409);
    expect((await lobbyAt(server.url, code)).phase).toBe('cancelled');
    // Everyone is free again.
    await lobbyOf(guest);
  });

  it('name the field of a bad body', async () => {
    const host = await player();
    const code = await lobbyOf(host);
    expect((await host.post(`/api/lobbies/${code}/pick-slot`, { team: 'red' })).body).toEqual({ error: 'index: is required' });
    expect((await host.post(`/api/lobbies/${code}/kick`, { user_id: -3 })).body).toEqual({ error: 'user_id: must be a positive integer' });
  });

  it('let one user into only one of two lobbies joined at the same moment', async () => {
    const [a, b, racer] = [await player(), await player(), await player()];
    const one = await lobbyOf(a);
    const two = await lobbyOf(b);
    const answers = await Promise.all([racer.post(`/api/lobbies/${one}/join`), racer.post(`/api/lobbies/${two}/join`)]);
    expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
    const pools = [await lobbyAt(server.url, one), await lobbyAt(server.url, two)].map((l) => l.pool.some((u) => u.id === racer.id));
    expect(pools.filter(Boolean)).toHaveLength(1);
  });

  it('read a lobby back from Postgres after the live store lost it', async () => {
    const host = await player();
    const guest = await player();
    const code = await lobbyOf(host);
    await guest.command(code, 'join');
    const before = await lobbyAt(server.url, code);
    await server.server.live.delete(lobbyKey(code));
    // Rebuilt at a higher version: what was served since the last save may be gone.
    const rebuilt = await lobbyAt(server.url, code);
    expect(rebuilt.version).toBeGreaterThan(before.version);
    expect({ ...rebuilt, version: before.version }).toEqual(before);
    await guest.command(code, 'leave');
    expect((await lobbyAt(server.url, code)).pool.map((u) => u.id)).toEqual([host.id]);
  });
});

describe('GET /api/servers/maps', () => {
  it('lists the maps a lobby map pool may use, and a pool drawn from it is accepted', async () => {
    const maps = await fetch(`${server.url}/api/servers/maps`).then((r) => r.json() as Promise<string[]>);
    expect(maps).toEqual(expect.arrayContaining(['cp_process_final', 'koth_product_final', 'ultiduo_baloo_v2']));
    const host = await player();
    const created = await host.post('/api/lobbies', { map_pool: [maps[0], maps[maps.length - 1]] });
    expect(created.status).toBe(200);
    expect(created.body.lobby.map_pool).toEqual([maps[0], maps[maps.length - 1]]);
  });

  it('a map pool with a map the catalog does not list is refused with 400', async () => {
    const host = await player();
    const created = await host.post('/api/lobbies', { map_pool: ['cp_process_final', 'cp_not_a_map_b1'] });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatch(/cp_not_a_map_b1/);
  });
});
