import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnTwoInstances, startTwoInstances, type Instance, type TwoInstances } from '../../support/two-instances';
import { lobbyAt, nextPlatformId } from '../lobby/lobby-client';
import { adminSideOn, type AdminSide } from './admin-fixtures';

/* A ban given through one instance holds on the other at once: the API's ban moves the list's generation, which every instance's next check (or guarded chat push) finds moved. */
describeOnTwoInstances('bans across two server processes', () => {
  let instances: TwoInstances;
  let world: AdminSide;
  let other: Instance;

  beforeAll(async () => {
    const adminPlatformId = nextPlatformId();
    instances = await startTwoInstances({ ADMIN_PLATFORM_IDS: adminPlatformId });
    world = await adminSideOn(instances.servers[0], adminPlatformId);
    other = instances.servers[1];
  }, 90_000);

  afterAll(() => instances?.close());

  it('a ban given on one instance refuses join and lobby create on the other at once, and its lift frees them at once', async () => {
    const host = (await world.player()).on(other.url);
    const player = (await world.player()).on(other.url);
    const code = (await host.post('/api/lobbies', {})).body.code;
    const banned = await world.asKey('/api/admin/bans', { method: 'POST', body: { user_id: player.id, reason: 'cheating' } });
    expect(banned.status).toBe(201);
    expect((await player.post(`/api/lobbies/${code}/join`)).status).toBe(403);
    expect((await player.post('/api/lobbies', {})).status).toBe(403);
    await world.asKey(`/api/admin/bans/${banned.body.id}/lift`, { method: 'POST', body: {} });
    expect((await player.post(`/api/lobbies/${code}/join`)).status).toBe(200);
    expect((await lobbyAt(other.url, code)).pool.map((u) => u.id)).toContain(player.id);
  });

  it('a ban given on one instance refuses chat on the other at once, though the other had just found its ban list current', async () => {
    const host = (await world.player()).on(other.url);
    const player = (await world.player()).on(other.url);
    const code = (await host.post('/api/lobbies', {})).body.code;
    await player.command(code, 'join');
    // This message finds the other instance's ban list current: the next one is pushed guarded on it.
    expect((await player.post(`/api/lobbies/${code}/chat`, { message: 'gl hf' })).status).toBe(200);
    expect((await world.asKey('/api/admin/bans', { method: 'POST', body: { user_id: player.id, reason: 'toxic chat' } })).status).toBe(201);
    expect((await player.post(`/api/lobbies/${code}/chat`, { message: 'still here' })).status).toBe(403);
    expect((await host.post(`/api/lobbies/${code}/chat`, { message: 'bye' })).status).toBe(200);
  });

  it('a player banned through one instance leaves the lobby the other instance serves', async () => {
    const host = (await world.player()).on(other.url);
    const player = (await world.player()).on(other.url);
    const code = (await host.post('/api/lobbies', {})).body.code;
    await player.command(code, 'join');
    expect((await world.asKey('/api/admin/bans', { method: 'POST', body: { user_id: player.id, reason: 'cheating' } })).status).toBe(201);
    expect((await lobbyAt(other.url, code)).pool.map((u) => u.id)).not.toContain(player.id);
  });
});
