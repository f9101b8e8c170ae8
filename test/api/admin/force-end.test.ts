import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAllClients, connect, nextEvent, request } from '../../realtime/support/socket-client';
import { draftAll, lobbyAt, type Player } from '../lobby/lobby-client';
import { api, freeBody } from '../servers/servers-client';
import { lastAudit, startAdminWorld, type AdminWorld } from './admin-fixtures';

let world: AdminWorld;
beforeAll(async () => {
  world = await startAdminWorld({ serverTiming: { startPollMs: 50 } });
}, 60_000);
afterAll(async () => {
  closeAllClients();
  await world?.server.close();
});

type Phase = 'gathering' | 'drafting' | 'ready_check' | 'live';

/** An ultiduo lobby (4 places) of four fresh players, brought to `phase`. */
async function lobbyIn(phase: Phase): Promise<{ code: string; players: Player[] }> {
  const players = [await world.player(), await world.player(), await world.player(), await world.player()];
  const [host, ...rest] = players;
  const code = (await host.post('/api/lobbies', { format: 'ultiduo' })).body.code as string;
  for (const player of rest) await player.command(code, 'join');
  if (phase === 'gathering') return { code, players };
  await host.command(code, 'set-captain', { user_id: host.id });
  await host.command(code, 'set-captain', { user_id: rest[0].id });
  await host.command(code, 'start-draft');
  if (phase === 'drafting') return { code, players };
  await draftAll(world.server.url, code, players);
  expect((await lobbyAt(world.server.url, code)).phase).toBe('ready_check');
  if (phase === 'ready_check') return { code, players };
  await host.command(code, 'force-start');
  return { code, players };
}

describe('force-end', () => {
  for (const phase of ['gathering', 'drafting', 'ready_check', 'live'] as const) {
    it(`ends a lobby in ${phase}, pushes it to watchers and frees its players at once`, async () => {
      const { code, players } = await lobbyIn(phase);
      const watcher = await connect(world.server.url);
      const subscribed = await request<{ lobby: { phase: string } }>(watcher, 'lobby:subscribe', { code });
      expect(subscribed.lobby.phase).toBe(phase);
      const pushed = nextEvent(watcher, 'lobby:update', (update) => update.code === code && update.lobby.phase === 'cancelled');

      const answer = await world.asKey(`/api/admin/lobbies/${code}/force-end`, { method: 'POST', body: { reason: 'stuck' } });
      expect(answer).toMatchObject({ status: 200, body: { code, phase: 'cancelled' } });
      await pushed;
      expect(await lastAudit(world, 'lobby.force_end')).toMatchObject({
        actor_id: world.admin.id, target_type: 'lobby', target_id: code, before: { code, phase }, after: { code, phase: 'cancelled' }, reason: 'stuck',
      });
      // Every former player can open a lobby of their own right away.
      for (const player of players) expect((await player.post('/api/lobbies', { format: 'ultiduo' })).status, `player ${player.id}`).toBe(200);
      watcher.close();
    });
  }

  it('releases the game server the lobby was pinned to, so its owner can pin the next lobby', async () => {
    const host = await world.player();
    const reservation = await api(world.server, '/api/servers', { method: 'POST', cookie: host.cookie, body: freeBody() });
    expect(reservation.status).toBe(201);
    const created = await host.post('/api/lobbies', { format: 'ultiduo', reservation_id: reservation.body.id });
    expect(created.status).toBe(200);
    const code = created.body.code as string;
    expect((await api(world.server, `/api/servers/${reservation.body.id}`, { cookie: host.cookie })).body.lobby_code).toBe(code);

    expect((await world.asKey(`/api/admin/lobbies/${code}/force-end`, { method: 'POST', body: { reason: 'server stuck' } })).status).toBe(200);
    expect((await api(world.server, `/api/servers/${reservation.body.id}`, { cookie: host.cookie })).body.lobby_code).toBeNull();
    expect(await lastAudit(world, 'lobby.force_end')).toMatchObject({ target_id: code, after: { phase: 'cancelled', released_reservation: reservation.body.id } });
    const next = await host.post('/api/lobbies', { format: 'ultiduo', reservation_id: reservation.body.id });
    expect(next.status).toBe(200);
    expect((await api(world.server, `/api/servers/${reservation.body.id}`, { cookie: host.cookie })).body.lobby_code).toBe(next.body.code);
  });

  it('answers 409 for a lobby already over, 404 for an unknown one, 400 without a reason', async () => {
    const { code } = await lobbyIn('gathering');
    expect((await world.asKey(`/api/admin/lobbies/${code}/force-end`, { method: 'POST', body: {} })).status).toBe(400);
    expect((await world.asKey(`/api/admin/lobbies/${code}/force-end`, { method: 'POST', body: { reason: 'x' } })).status).toBe(200);
    expect((await world.asKey(`/api/admin/lobbies/${code}/force-end`, { method: 'POST', body: { reason: 'x' } })).status).toBe(409);
    expect((await world.asKey('/api/admin/lobbies/NOPE42/force-end', { method: 'POST', body: { reason: 'x' } })).status).toBe(404);
  });
});
