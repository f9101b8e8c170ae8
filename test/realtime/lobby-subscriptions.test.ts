import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LobbyDetail } from '../../schema/lobby';
import type { LobbiesAck, SubscribeAck } from '../../schema/realtime';
import { startTestServerWithLogin, type LoggedIn, type TestServerWithLogin } from '../support/login';
import { createLobby, lobbyCommand } from './support/rest-client';
import { closeAllClients, connect, nextEvent, recordEvents, request } from './support/socket-client';
import { freshUser } from './support/users';

let server: TestServerWithLogin;

beforeAll(async () => {
  server = await startTestServerWithLogin();
});

afterAll(async () => {
  closeAllClients();
  await server?.close();
});

async function hostedLobby(): Promise<{ host: LoggedIn; lobby: LobbyDetail }> {
  const host = await freshUser(server);
  return { host, lobby: await createLobby(server.url, host.cookie) };
}

describe('lobby:subscribe', () => {
  it('acks the full lobby snapshot with its version', async () => {
    const { lobby } = await hostedLobby();
    const socket = await connect(server.url);

    const answer = await request<SubscribeAck>(socket, 'lobby:subscribe', { code: lobby.code });

    expect(answer).toEqual({ lobby });
  });

  it('accepts the code in any letter case, as the REST path does', async () => {
    const { lobby } = await hostedLobby();
    const socket = await connect(server.url);

    const answer = await request<SubscribeAck>(socket, 'lobby:subscribe', { code: lobby.code.toLowerCase() });

    expect(answer).toMatchObject({ lobby: { code: lobby.code } });
  });

  it('answers an unknown code with 404', async () => {
    const socket = await connect(server.url);

    expect(await request(socket, 'lobby:subscribe', { code: 'ZZZZZZ' })).toEqual({ error: expect.any(String), status: 404 });
    expect(await request(socket, 'lobby:subscribe', { code: 'not a code!' })).toEqual({ error: expect.any(String), status: 404 });
  });

  it.each([
    ['no payload', undefined],
    ['a string', 'AB12'],
    ['no code', {}],
    ['a numeric code', { code: 12 }],
  ])('answers a malformed payload (%s) with 400', async (_name, payload) => {
    const socket = await connect(server.url);

    expect(await request(socket, 'lobby:subscribe', payload)).toEqual({ error: expect.any(String), status: 400 });
  });

  it('delivers a REST command to subscribers as lobby:update with the next version', async () => {
    const { lobby } = await hostedLobby();
    const player = await freshUser(server);
    const socket = await connect(server.url);
    await request(socket, 'lobby:subscribe', { code: lobby.code });

    const update = nextEvent(socket, 'lobby:update');
    expect((await lobbyCommand(server.url, lobby.code, 'join', player.cookie)).status).toBe(200);

    const { code, version, lobby: after } = await update;
    expect(code).toBe(lobby.code);
    expect(version).toBe(lobby.version + 1);
    expect(after.version).toBe(version);
    expect(after.pool.map((user) => user.id)).toContain(player.user.id);
  });

  it('delivers chat to subscribers as lobby:chat', async () => {
    const { host, lobby } = await hostedLobby();
    const socket = await connect(server.url);
    await request(socket, 'lobby:subscribe', { code: lobby.code });

    const chat = nextEvent(socket, 'lobby:chat');
    expect((await lobbyCommand(server.url, lobby.code, 'chat', host.cookie, { message: 'gl hf' })).status).toBe(200);

    expect(await chat).toEqual({
      code: lobby.code,
      message: expect.objectContaining({ message: 'gl hf', user: expect.objectContaining({ id: host.user.id }) }),
    });
  });

  it('stops delivering to a socket after lobby:unsubscribe', async () => {
    const { lobby } = await hostedLobby();
    const player = await freshUser(server);
    const leaving = await connect(server.url);
    const staying = await connect(server.url);
    await request(leaving, 'lobby:subscribe', { code: lobby.code });
    await request(staying, 'lobby:subscribe', { code: lobby.code });
    const seenByLeaving = recordEvents(leaving, 'lobby:update');

    expect(await request(leaving, 'lobby:unsubscribe', { code: lobby.code })).toEqual({ ok: true });
    const update = nextEvent(staying, 'lobby:update');
    await lobbyCommand(server.url, lobby.code, 'join', player.cookie);
    await update;
    // One more round trip on the leaving socket: anything sent to it before now has arrived.
    await request(leaving, 'lobbies:subscribe');

    expect(seenByLeaving).toEqual([]);
  });

  it('keeps lobbies of other rooms apart', async () => {
    const first = await hostedLobby();
    const second = await hostedLobby();
    const player = await freshUser(server);
    const socket = await connect(server.url);
    await request(socket, 'lobby:subscribe', { code: first.lobby.code });
    const seen = recordEvents(socket, 'lobby:update');

    await lobbyCommand(server.url, second.lobby.code, 'join', player.cookie);
    const chat = nextEvent(socket, 'lobby:chat');
    await lobbyCommand(server.url, first.lobby.code, 'chat', first.host.cookie, { message: 'marker' });
    await chat;

    expect(seen.filter((update) => update.code === second.lobby.code)).toEqual([]);
  });
});

describe('lobbies:subscribe', () => {
  it('acks the open lobbies and pushes lobbies:update when one opens', async () => {
    const socket = await connect(server.url);
    const answer = await request<LobbiesAck>(socket, 'lobbies:subscribe');
    expect(answer).toEqual({ lobbies: expect.any(Array) });

    const pushed = nextEvent(socket, 'lobbies:update', ({ lobbies }) => lobbies.some((l) => l.name === 'list test'));
    const host = await freshUser(server);
    const lobby = await createLobby(server.url, host.cookie, { name: 'list test' });

    const { lobbies } = await pushed;
    expect(lobbies.find((summary) => summary.code === lobby.code)).toMatchObject({ code: lobby.code, name: 'list test', phase: 'gathering' });
  });
});
