import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SocketServer } from '../../realtime/socket-server';
import { REFUSALS, sampleLobby, type FakeServices } from './support/fake-lobby-services';
import { startSocketLayer, type SocketLayer } from './support/socket-layer';
import { connect, nextEvent, recordEvents, request } from './support/socket-client';

/*
 * The socket layer alone, on a bare uWS app with fake lobby services: handshake, validation,
 * acknowledgement mapping, rooms and recovery (each instance's own: broadcasts reach other
 * instances through the live store's lobby feed, not through socket.io).
 */
let layer: SocketLayer;
let sockets: SocketServer;
let url: string;
let services: FakeServices;

beforeAll(async () => {
  layer = await startSocketLayer({ publicUrl: 'https://league.example' });
  ({ sockets, url, services } = layer);
});

afterAll(async () => {
  await layer?.close();
});

const sampleUser = { id: 1, platform_id: '76561198000000001', username: 'one', avatar_url: null, elo: 1000, name_color: null, profile_frame: null };

let nextCode = 0;
function addLobby(): string {
  const code = `SK${++nextCode}`;
  services.lobbiesByCode.set(code, sampleLobby(code));
  return code;
}

describe('the handshake', () => {
  it('admits a socket without credentials as anonymous', async () => {
    await expect(connect(url)).resolves.toMatchObject({ connected: true });
  });

  it('refuses an invalid key with the status REST gives', async () => {
    await expect(connect(url, { token: 'bad' })).rejects.toMatchObject({ data: { status: 401, error: 'invalid API key' } });
  });

  it.each([
    ['the public site', 'https://league.example', { ok: true, status: 200, echoed: {} }],
    ['the host the socket asked for', 'same-host', { ok: true, status: 200, echoed: {} }],
    ['another site', 'https://evil.example', { error: 'login required', status: 401 }],
    ['an opaque origin', 'null', { error: 'login required', status: 401 }],
  ])('lets a page from %s use the session cookie, or not', async (_name, origin, expected) => {
    const socket = await connect(url, { cookie: 'league_session=user8', origin: origin === 'same-host' ? url : origin });

    expect(await request(socket, 'lobby:command', { code: addLobby(), type: 'join' })).toEqual(expected);
  });

  it('marks the user of a session socket as online, without waiting for a heartbeat', async () => {
    await connect(url, { cookie: 'league_session=user41' });

    expect(services.touched).toContain(41);
  });
});

describe('lobby:command', () => {
  it('refuses an anonymous socket with 401', async () => {
    const socket = await connect(url);
    const code = addLobby();

    expect(await request(socket, 'lobby:command', { code, type: 'join' })).toEqual({ error: 'login required', status: 401 });
    expect(services.commands.filter((command) => command.code === code)).toEqual([]);
  });

  it('runs the command as the session user with the rest of the payload as the body', async () => {
    const socket = await connect(url, { cookie: 'league_session=user7' });
    const code = addLobby();

    const answer = await request(socket, 'lobby:command', { code, type: 'vote-map', map: 'koth_product' });

    expect(answer).toEqual({ ok: true, status: 200, echoed: { map: 'koth_product' } });
    expect(services.commands).toContainEqual({ code, type: 'vote-map', body: { map: 'koth_product' }, userId: 7 });
  });

  it('runs the body through the route schema: unknown fields dropped, a bad field 400 before the engine', async () => {
    const socket = await connect(url, { cookie: 'league_session=user7' });
    const code = addLobby();

    expect(await request(socket, 'lobby:command', { code, type: 'join', extra: 1 })).toEqual({ ok: true, status: 200, echoed: {} });
    expect(await request(socket, 'lobby:command', { code, type: 'pick', user_id: 'x' })).toEqual({ error: 'user_id: must be a number', status: 400 });
    expect(services.commands.filter((c) => c.code === code).map((c) => c.type)).toEqual(['join']);
  });

  it('lets a key socket watch, but checks its commands as REST checks the key: 401 on a session route', async () => {
    const socket = await connect(url, { token: 'key9' });
    const code = addLobby();

    expect(await request(socket, 'lobby:subscribe', { code })).toMatchObject({ lobby: { code } });
    expect(await request(socket, 'lobby:command', { code, type: 'join' })).toEqual({ error: 'login required', status: 401 });
    expect(services.exchanges.at(-1)).toEqual({ method: 'POST', path: `/api/lobbies/${code}/join`, authorization: 'Bearer key9', finished: 401 });
    expect(services.commands.filter((c) => c.code === code)).toEqual([]);
  });

  it('finishes the credential check with the status the ack carries (the key audit row), cancel as DELETE', async () => {
    const socket = await connect(url, { cookie: 'league_session=user7' });
    const code = addLobby();

    expect(await request(socket, 'lobby:command', { code, type: 'cancel' })).toMatchObject({ ok: true, status: 204 });
    expect(services.exchanges.at(-1)).toMatchObject({ method: 'DELETE', path: `/api/lobbies/${code}`, finished: 204 });
    expect(await request(socket, 'lobby:command', { code, type: 'chat', message: 'refuse-conflict' })).toEqual({ error: 'refused 409', status: 409 });
    expect(services.exchanges.at(-1)).toMatchObject({ method: 'POST', path: `/api/lobbies/${code}/chat`, finished: 409 });
  });

  it.each(Object.entries(REFUSALS))('acks a refusal with the status the error maps to (%s: %i)', async (message, status) => {
    const socket = await connect(url, { cookie: 'league_session=user7' });

    expect(await request(socket, 'lobby:command', { code: addLobby(), type: 'chat', message })).toEqual({ error: `refused ${status}`, status });
  });

  it('acks an unexpected failure with 500 and keeps the socket usable', async () => {
    const socket = await connect(url, { cookie: 'league_session=user7' });

    expect(await request(socket, 'lobby:command', { code: addLobby(), type: 'chat', message: 'crash' })).toEqual({ error: 'internal error', status: 500 });
    expect(services.exchanges.at(-1)?.finished).toBe(500);
    expect(await request(socket, 'lobby:command', { code: addLobby(), type: 'join' })).toMatchObject({ ok: true });
  });

  it.each([
    ['no payload', undefined],
    ['no type', { code: 'AB12' }],
    ['a numeric code', { code: 5, type: 'join' }],
    ['a type that is no command name', { code: 'AB12', type: 'Join Now' }],
  ])('answers a malformed payload (%s) with 400', async (_name, payload) => {
    const socket = await connect(url, { cookie: 'league_session=user7' });

    expect(await request(socket, 'lobby:command', payload)).toEqual({ error: expect.any(String), status: 400 });
  });
});

describe('broadcasts', () => {
  it('reach the sockets subscribed to the lobby and no others', async () => {
    const code = addLobby();
    const other = addLobby();
    const subscriber = await connect(url);
    const bystander = await connect(url);
    await request(subscriber, 'lobby:subscribe', { code });
    await request(bystander, 'lobby:subscribe', { code: other });
    const seenByBystander = recordEvents(bystander, 'lobby:update');

    const update = nextEvent(subscriber, 'lobby:update');
    sockets.broadcast.lobbyUpdated(code, 2, sampleLobby(code, 2));

    expect(await update).toEqual({ code, version: 2, lobby: sampleLobby(code, 2) });
    await request(bystander, 'lobbies:subscribe');
    expect(seenByBystander).toEqual([]);
  });

  /** A watcher of a new lobby that got one update (its first offset: without one there is nothing to resume from), then lost its connection. */
  async function droppedWatcher() {
    const code = addLobby();
    const socket = await connect(url);
    await request(socket, 'lobby:subscribe', { code });
    const first = nextEvent(socket, 'lobby:update');
    sockets.broadcast.lobbyUpdated(code, 2, sampleLobby(code, 2));
    await first;
    const dropped = new Promise((resolve) => socket.once('disconnect', resolve));
    socket.io.engine.close();
    await dropped;
    return { code, socket };
  }

  it('replay what a briefly disconnected client missed once it reconnects (connection state recovery)', async () => {
    const { code, socket } = await droppedWatcher();
    sockets.broadcast.lobbyUpdated(code, 3, sampleLobby(code, 3));
    sockets.broadcast.lobbyChat(code, { id: 1, user: sampleUser, message: 'missed', created_at: new Date(0).toISOString() });
    const replayed = nextEvent(socket, 'lobby:update');
    const chat = nextEvent(socket, 'lobby:chat');
    socket.connect();

    expect((await replayed).version).toBe(3);
    expect((await chat).message.message).toBe('missed');
    expect(socket.recovered).toBe(true);
  });

  it('keep reaching a client after it recovered from a blip', async () => {
    const { code, socket } = await droppedWatcher();
    const reconnected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.connect();
    await reconnected;
    expect(socket.recovered).toBe(true);

    const live = nextEvent(socket, 'lobby:update');
    sockets.broadcast.lobbyUpdated(code, 3, sampleLobby(code, 3));
    expect((await live).version).toBe(3);
  });
});
