import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandAck } from '../../schema/realtime';
import { DEFAULT_USER_RATE_LIMITS } from '../../src/config/config';
import { startTestServerWithLogin, type TestServerWithLogin } from '../support/login';
import { startServerProcess, type SpawnedServer } from '../support/spawn-server';
import { createLobby, lobbyCommand } from './support/rest-client';
import { closeAllClients, connect, request, type LeagueClient } from './support/socket-client';
import { freshUser } from './support/users';

/**
 * Per-user limits on chat and lobby commands (README, "Limits"), counted in the live store:
 * the same budget whichever door (REST or socket) and whichever instance a message takes.
 */
let server: TestServerWithLogin;
const CHAT = DEFAULT_USER_RATE_LIMITS.chat;
const COMMANDS = DEFAULT_USER_RATE_LIMITS.command;

beforeAll(async () => {
  server = await startTestServerWithLogin();
});
afterAll(async () => {
  closeAllClients();
  await server?.close();
});

const chat = (socket: LeagueClient, code: string, message: string) => request<CommandAck>(socket, 'lobby:command', { code, type: 'chat', message });

describe('chat', () => {
  it(`takes ${CHAT} messages per 10 s from one user over both doors, then 429 with Retry-After over REST and {error, status: 429, retry_after_s} over the socket`, async () => {
    const host = await freshUser(server);
    const lobby = await createLobby(server.url, host.cookie);
    const socket = await connect(server.url, { cookie: host.cookie });
    for (let i = 0; i < CHAT; i++) {
      if (i % 2 === 0) expect(await chat(socket, lobby.code, `m${i}`)).toEqual({ ok: true, status: 200 });
      else expect((await lobbyCommand(server.url, lobby.code, 'chat', host.cookie, { message: `m${i}` })).status).toBe(200);
    }
    const overSocket = await chat(socket, lobby.code, 'one too many');
    expect(overSocket).toEqual({ error: expect.stringMatching(/rate limit exceeded: 20 chat messages per 10 s/), status: 429, retry_after_s: expect.any(Number) });
    expect((overSocket as { retry_after_s: number }).retry_after_s).toBeGreaterThanOrEqual(1);
    expect((overSocket as { retry_after_s: number }).retry_after_s).toBeLessThanOrEqual(10);
    const overRest = await fetch(`${server.url}/api/lobbies/${lobby.code}/chat`, {
      method: 'POST',
      headers: { cookie: host.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'still too many' }),
    });
    expect(overRest.status).toBe(429);
    expect(await overRest.json()).toEqual({ error: expect.any(String) });
    expect(Number(overRest.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(overRest.headers.get('retry-after'))).toBeLessThanOrEqual(10);
    // Nothing over the limit was stored.
    const history = await fetch(`${server.url}/api/lobbies/${lobby.code}/chat`).then((r) => r.json());
    expect(JSON.stringify(history)).not.toContain('too many');
  });

  it("one user's flood leaves another user's chat alone", async () => {
    const host = await freshUser(server);
    const other = await freshUser(server);
    const lobby = await createLobby(server.url, host.cookie);
    expect((await lobbyCommand(server.url, lobby.code, 'join', other.cookie)).status).toBe(200);
    const flooder = await connect(server.url, { cookie: host.cookie });
    await Promise.all(Array.from({ length: CHAT + 5 }, (_, i) => chat(flooder, lobby.code, `f${i}`)));
    const calm = await connect(server.url, { cookie: other.cookie });
    expect(await chat(calm, lobby.code, 'hello')).toEqual({ ok: true, status: 200 });
  });
});

describe('lobby commands', () => {
  it(`takes ${COMMANDS} commands per 10 s from one user, refused ones included, then 429`, async () => {
    const user = await freshUser(server);
    const host = await freshUser(server);
    const lobby = await createLobby(server.url, host.cookie);
    const socket = await connect(server.url, { cookie: user.cookie });
    // `leave` of a lobby one is not in is refused by the rules, but still costs the budget.
    const answers = await Promise.all(Array.from({ length: COMMANDS }, () => request<CommandAck>(socket, 'lobby:command', { code: lobby.code, type: 'leave' })));
    expect(answers.every((answer) => 'status' in answer && answer.status !== 429)).toBe(true);
    const over = await lobbyCommand(server.url, lobby.code, 'join', user.cookie);
    expect(over.status).toBe(429);
  });
});

describe('socket events the server does not take', () => {
  it('an unknown event with an acknowledgement is answered {error, status: 400}', async () => {
    const socket = await connect(server.url);
    expect(await request(socket, 'lobby:explode', { code: 'AB12' })).toEqual({ error: 'event: unknown event name', status: 400 });
  });

  it('a payload over the advertised 64 KB is answered {error, status: 413}, and the socket stays usable', async () => {
    const socket = await connect(server.url);
    const answer = await request(socket, 'lobby:subscribe', { code: 'x'.repeat(80 * 1024) });
    expect(answer).toEqual({ error: 'event payload over 65536 bytes', status: 413 });
    expect(await request(socket, 'lobbies:subscribe')).toEqual({ lobbies: expect.any(Array) });
  });

  it('a frame over the transport limit (128 KB) is cut by socket.io: the connection closes, the server carries on', async () => {
    const socket = await connect(server.url);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    socket.emit('lobby:subscribe', { code: 'x'.repeat(200 * 1024) }, () => undefined);
    expect(await closed).toMatch(/transport (close|error)/);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe.skipIf(!process.env.REDIS_URL)('across instances', () => {
  let second: SpawnedServer;
  beforeAll(async () => {
    second = await startServerProcess({ ...server.env, PORT: '', LOG_LEVEL: 'warn' });
  }, 60_000);
  afterAll(async () => {
    await second?.stop();
  });

  it('the chat budget is one for a user spread over two server processes', async () => {
    const host = await freshUser(server);
    const lobby = await createLobby(server.url, host.cookie);
    const urls = [server.url, second.url];
    for (let i = 0; i < CHAT; i++) {
      expect((await lobbyCommand(urls[i % 2], lobby.code, 'chat', host.cookie, { message: `m${i}` })).status).toBe(200);
    }
    for (const url of urls) expect((await lobbyCommand(url, lobby.code, 'chat', host.cookie, { message: 'over' })).status).toBe(429);
  });
});
