import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LobbyDetail } from '../../schema/lobby';
import { startTwoInstances, type Instance, type TwoInstances } from '../support/two-instances';
import { createLobby, lobbyCommand, rest } from './support/rest-client';
import { closeAllClients, connect, nextEvent, request } from './support/socket-client';
import { freshUser } from './support/users';

/*
 * Two instances sharing Redis and Postgres, each in its own process (socket.io on uWS allows one
 * server per process). Without REDIS_URL there is no second instance to have, and without
 * DATABASE_URL none to share (the embedded database serves its own process only).
 */
const shared = Boolean(process.env.REDIS_URL && process.env.DATABASE_URL);

describe.skipIf(!shared)('two instances sharing Redis', () => {
  let instances: TwoInstances;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    // Same stores, same key prefix, same session secret: a cookie from A is valid on B.
    instances = await startTwoInstances();
    [a, b] = instances.servers;
  }, 90_000);

  afterAll(async () => {
    closeAllClients();
    await instances?.close();
  });

  it('delivers a REST command sent to B to a subscriber on A', async () => {
    const host = await freshUser(a);
    const player = await freshUser(a);
    const lobby = await createLobby(b.url, host.cookie);
    const subscriber = await connect(a.url);
    await request(subscriber, 'lobby:subscribe', { code: lobby.code });

    const update = nextEvent(subscriber, 'lobby:update');
    expect((await lobbyCommand(b.url, lobby.code, 'join', player.cookie)).status).toBe(200);

    expect(await update).toMatchObject({ code: lobby.code, version: lobby.version + 1 });
  });

  it('delivers a socket command sent to B, and its chat, to a subscriber on A', async () => {
    const host = await freshUser(a);
    const lobby = await createLobby(a.url, host.cookie);
    const subscriber = await connect(a.url);
    await request(subscriber, 'lobby:subscribe', { code: lobby.code });
    const onB = await connect(b.url, { cookie: host.cookie });

    const chat = nextEvent(subscriber, 'lobby:chat');
    expect(await request(onB, 'lobby:command', { code: lobby.code, type: 'chat', message: 'from B' })).toEqual({ ok: true, status: 200 });

    expect((await chat).message.message).toBe('from B');
  });

  it('replays to a client back on A what B sent while it was away, even with nobody else in the room on A', async () => {
    const host = await freshUser(a);
    const first = await freshUser(a);
    const second = await freshUser(a);
    const lobby = await createLobby(b.url, host.cookie);
    const subscriber = await connect(a.url);
    await request(subscriber, 'lobby:subscribe', { code: lobby.code });
    const seen = nextEvent(subscriber, 'lobby:update');
    await lobbyCommand(b.url, lobby.code, 'join', first.cookie);
    await seen; // the client now holds an offset to resume from

    const dropped = new Promise((resolve) => subscriber.once('disconnect', resolve));
    subscriber.io.engine.close();
    await dropped;
    expect((await lobbyCommand(b.url, lobby.code, 'join', second.cookie)).status).toBe(200);
    const replayed = nextEvent(subscriber, 'lobby:update');
    subscriber.connect();

    const update = await replayed;
    expect(subscriber.recovered).toBe(true);
    expect(update.version).toBe(lobby.version + 2);
    expect(update.lobby.pool.map((user) => user.id)).toContain(second.user.id);
  });

  // Last: it replaces B with a new process.
  it('delivers every change to a subscriber on an instance started after the lobby changed, though the feed carries only deltas', async () => {
    const host = await freshUser(a);
    const lobby = await createLobby(a.url, host.cookie);
    const [first, second] = lobby.map_pool;
    // A has written the lobby since it read it: from here on it publishes deltas.
    for (const map of [first, second]) expect((await lobbyCommand(a.url, lobby.code, 'vote-map', host.cookie, { map })).status).toBe(200);
    b = await instances.restart(1);
    const subscriber = await connect(b.url);
    const snapshot = (await request<{ lobby: LobbyDetail }>(subscriber, 'lobby:subscribe', { code: lobby.code })).lobby;

    const update = nextEvent(subscriber, 'lobby:update');
    expect((await lobbyCommand(a.url, lobby.code, 'vote-map', host.cookie, { map: first })).status).toBe(200);

    const { lobby: after } = await update;
    expect(after.version).toBe(snapshot.version + 1);
    expect(after).toEqual((await rest(a.url, 'GET', `/api/lobbies/${lobby.code}`)).body);
  });
});
