import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LobbyDetail } from '../../schema/lobby';
import type { CommandAck } from '../../schema/realtime';
import { startTestServerWithLogin, type LoggedIn, type TestServerWithLogin } from '../support/login';
import { createLobby, lobbyCommand, rest } from './support/rest-client';
import { closeAllClients, connect, nextEvent, request, type LeagueClient } from './support/socket-client';
import { freshUser } from './support/users';

let server: TestServerWithLogin;

beforeAll(async () => {
  server = await startTestServerWithLogin();
});

afterAll(async () => {
  closeAllClients();
  await server?.close();
});

async function sessionSocket(user: LoggedIn): Promise<LeagueClient> {
  return connect(server.url, { cookie: user.cookie });
}

function command(socket: LeagueClient, code: string, type: string, body: Record<string, unknown> = {}): Promise<CommandAck> {
  return request<CommandAck>(socket, 'lobby:command', { code, type, ...body });
}

describe('lobby:command over a session socket', () => {
  it('runs the command, acks {ok: true} and reaches subscribers like its REST twin', async () => {
    const host = await freshUser(server);
    const player = await freshUser(server);
    const lobby = await createLobby(server.url, host.cookie);
    const watcher = await connect(server.url);
    await request(watcher, 'lobby:subscribe', { code: lobby.code });
    const socket = await sessionSocket(player);

    const update = nextEvent(watcher, 'lobby:update');
    expect(await command(socket, lobby.code, 'join')).toEqual({ ok: true, status: 200 });

    const { version, lobby: after } = await update;
    expect(version).toBe(lobby.version + 1);
    expect(after.pool.map((user) => user.id)).toContain(player.user.id);
  });

  it('sends chat to the room as lobby:chat', async () => {
    const host = await freshUser(server);
    const lobby = await createLobby(server.url, host.cookie);
    const socket = await sessionSocket(host);
    await request(socket, 'lobby:subscribe', { code: lobby.code });

    const chat = nextEvent(socket, 'lobby:chat');
    expect(await command(socket, lobby.code, 'chat', { message: 'over the socket' })).toEqual({ ok: true, status: 200 });

    expect((await chat).message).toMatchObject({ message: 'over the socket', user: { id: host.user.id } });
  });

  /*
   * Each case is refused, so the lobby is unchanged and the same request can go through both
   * doors: the socket must answer with the status the REST route gives.
   */
  interface RefusalCase {
    name: string;
    status: number;
    type: string;
    body?: Record<string, unknown>;
    /** Who sends it: the host, a member who is not host, or a user outside the lobby. */
    as: 'host' | 'member' | 'outsider';
    code?: string;
  }
  const refusals: RefusalCase[] = [
    { name: 'start-draft by a member who is not host', status: 403, type: 'start-draft', as: 'member' },
    { name: 'pick by someone who is not a captain', status: 403, type: 'pick', body: { user_id: 1 }, as: 'member' },
    { name: 'ready without a slot', status: 403, type: 'ready', as: 'member' },
    { name: 'join when already in the lobby', status: 409, type: 'join', as: 'member' },
    { name: 'leave when not in the lobby', status: 409, type: 'leave', as: 'outsider' },
    { name: 'vote for a map outside the pool', status: 400, type: 'vote-map', body: { map: 'cp_nowhere' }, as: 'member' },
    { name: 'a vote without a map', status: 400, type: 'vote-map', as: 'member' },
    { name: 'chat over 500 characters', status: 400, type: 'chat', body: { message: 'x'.repeat(501) }, as: 'member' },
    { name: 'join of an unknown lobby', status: 404, type: 'join', as: 'outsider', code: 'ZZZZZZ' },
  ];

  it.each(refusals)('refuses $name with $status, as REST does', async (c) => {
    const host = await freshUser(server);
    const member = await freshUser(server);
    const outsider = await freshUser(server);
    const lobby = await createLobby(server.url, host.cookie);
    await lobbyCommand(server.url, lobby.code, 'join', member.cookie);
    const caller = { host, member, outsider }[c.as];
    const code = c.code ?? lobby.code;

    const viaRest = await lobbyCommand(server.url, code, c.type, caller.cookie, c.body);
    const viaSocket = await command(await sessionSocket(caller), code, c.type, c.body);

    expect(viaRest.status).toBe(c.status);
    expect(viaSocket).toEqual({ error: expect.any(String), status: c.status });
  });

  it('answers 404 to a lobby code no URL could carry (a lone surrogate), as REST answers a code that is no lobby', async () => {
    const host = await freshUser(server);
    expect(await command(await sessionSocket(host), '\uD800AB', 'join')).toEqual({ error: expect.any(String), status: 404 });
  });

  it('answers a type that is no lobby command with 400', async () => {
    const host = await freshUser(server);
    const lobby = await createLobby(server.url, host.cookie);

    expect(await command(await sessionSocket(host), lobby.code, 'teleport')).toEqual({ error: expect.any(String), status: 400 });
  });
});

describe('a payload that is not a JSON object', () => {
  const events = ['lobby:subscribe', 'lobby:unsubscribe', 'lobby:command'];
  const payloads: unknown[] = [[], [1, 2, 3], 'text', 42, null, true];

  it.each(events.flatMap((event) => payloads.map((payload) => ({ event, payload, shown: JSON.stringify(payload) }))))(
    'to $event ($shown) is refused 400, as a REST body would be',
    async ({ event, payload }) => {
      const user = await freshUser(server);
      const socket = await sessionSocket(user);
      expect(await request(socket, event, payload)).toEqual({ error: 'payload must be a JSON object', status: 400 });
    },
  );

  it('names the field when a command body field has the wrong type, as REST does', async () => {
    const host = await freshUser(server);
    const lobby = await createLobby(server.url, host.cookie);
    const viaRest = await lobbyCommand(server.url, lobby.code, 'vote-map', host.cookie, { map: [] });
    expect(await command(await sessionSocket(host), lobby.code, 'vote-map', { map: [] })).toEqual({ ...viaRest.body, status: 400 });
  });
});

describe('anonymous sockets', () => {
  it('may subscribe and read, but a command is refused 401 as REST refuses it', async () => {
    const host = await freshUser(server);
    const lobby = await createLobby(server.url, host.cookie);
    const socket = await connect(server.url);

    expect(await request(socket, 'lobby:subscribe', { code: lobby.code })).toMatchObject({ lobby: { code: lobby.code } });
    expect(await command(socket, lobby.code, 'join')).toEqual({ error: expect.any(String), status: 401 });
    expect((await rest(server.url, 'POST', `/api/lobbies/${lobby.code}/join`, { body: {} })).status).toBe(401);
  });
});

describe('bots with a key', () => {
  async function adminKeyFor(user: LoggedIn): Promise<string> {
    await server.database.db.em().execute('update users set is_admin = true where id = ?', [user.user.id]);
    const issued = await rest<{ raw_key: string }>(server.url, 'POST', '/api/admin/api-keys', { cookie: user.cookie, body: {} });
    if (issued.status !== 201) throw new Error(`issuing an admin key answered ${issued.status}: ${JSON.stringify(issued.body)}`);
    return issued.body.raw_key;
  }

  it('connect with auth.token and watch; a command answers what REST answers that key: 401 on a session route', async () => {
    const host = await freshUser(server);
    const botOwner = await freshUser(server);
    const lobby: LobbyDetail = await createLobby(server.url, host.cookie);
    const key = await adminKeyFor(botOwner);
    const bot = await connect(server.url, { token: key });
    expect(await request(bot, 'lobby:subscribe', { code: lobby.code })).toMatchObject({ lobby: { code: lobby.code } });

    const viaRest = await rest(server.url, 'POST', `/api/lobbies/${lobby.code}/join`, { token: key, body: {} });
    expect(viaRest).toEqual({ status: 401, body: { error: 'login required' } });
    expect(await command(bot, lobby.code, 'join')).toEqual({ error: 'login required', status: 401 });
    expect((await rest<LobbyDetail>(server.url, 'GET', `/api/lobbies/${lobby.code}`)).body.pool.map((user) => user.id)).not.toContain(botOwner.user.id);
  });

  it('are refused at the handshake with 401 when the key is not valid', async () => {
    await expect(connect(server.url, { token: `svc_ak_${'A'.repeat(43)}` })).rejects.toMatchObject({ data: { status: 401 } });
  });
});
