import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwoInstances, type Instance, type TwoInstances } from '../support/two-instances';
import { createLobby, lobbyCommand } from './support/rest-client';
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
});
