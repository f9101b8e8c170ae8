import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandshakeRefusal } from '../../schema/realtime';
import { startTestServerWithLogin, type TestServerWithLogin } from '../support/login';
import { createLobby, rest } from './support/rest-client';
import { closeAllClients, connect, request, type LeagueClient } from './support/socket-client';
import { freshUser } from './support/users';

/**
 * The limits a shared server sets on one client (issue 21): sockets per address, lobby
 * subscriptions per socket, lobby creations per user per minute; each refusal names its limit.
 */
const PER_ADDRESS = 4;
const SUBSCRIPTIONS = 3;
const CREATES = 3;
let server: TestServerWithLogin;

beforeAll(async () => {
  server = await startTestServerWithLogin({
    SOCKETS_PER_ADDRESS: String(PER_ADDRESS),
    SUBSCRIPTIONS_PER_SOCKET: String(SUBSCRIPTIONS),
    LOBBY_CREATE_RATE_LIMIT: String(CREATES),
  });
});
afterAll(async () => {
  closeAllClients();
  await server?.close();
});

/** The server counts a socket out when its transport closes, a moment after the client closed it: a bounded number of tries. */
async function connectOnceFree(): Promise<LeagueClient> {
  for (let i = 0; ; i++) {
    try {
      return await connect(server.url);
    } catch (error) {
      if (i >= 100 || (error as { data?: HandshakeRefusal }).data?.status !== 429) throw error;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

const refusalOf = (attempt: Promise<LeagueClient>) => attempt.then(() => null, (error: Error & { data?: HandshakeRefusal }) => error.data ?? null);

describe('sockets per address', () => {
  it(`takes ${PER_ADDRESS} sockets from one address, refuses the next with 429, and takes one again once another closed`, async () => {
    const open = await Promise.all(Array.from({ length: PER_ADDRESS }, () => connect(server.url)));
    expect(await refusalOf(connect(server.url))).toEqual({ status: 429, error: `too many connections from this address: at most ${PER_ADDRESS}` });
    open[0].close();
    const again = await connectOnceFree();
    expect(again.connected).toBe(true);
    for (const socket of [...open, again]) socket.close();
  });
});

describe('subscriptions per socket', () => {
  const overLimit = {
    error: `too many subscriptions on this socket (lobbies, teams, threads and tournaments together): at most ${SUBSCRIPTIONS}; unsubscribe from one first`,
    status: 429,
  };

  it(`keeps a socket in at most ${SUBSCRIPTIONS} lobbies: the next subscribe is 429 until it unsubscribes from one`, async () => {
    const codes: string[] = [];
    for (let i = 0; i <= SUBSCRIPTIONS; i++) codes.push((await createLobby(server.url, (await freshUser(server)).cookie)).code);
    const socket = await connectOnceFree();
    for (const code of codes.slice(0, SUBSCRIPTIONS)) expect(await request(socket, 'lobby:subscribe', { code })).toMatchObject({ lobby: { code } });
    const over = codes[SUBSCRIPTIONS];
    expect(await request(socket, 'lobby:subscribe', { code: over })).toEqual(overLimit);
    // Subscribing again to one it is in still answers its snapshot.
    expect(await request(socket, 'lobby:subscribe', { code: codes[0] })).toMatchObject({ lobby: { code: codes[0] } });
    expect(await request(socket, 'lobby:unsubscribe', { code: codes[0] })).toEqual({ ok: true });
    expect(await request(socket, 'lobby:subscribe', { code: over })).toMatchObject({ lobby: { code: over } });
    socket.close();
  });

  it(`counts team, thread and tournament subscriptions with lobby ones: a socket in ${SUBSCRIPTIONS} rooms of any kind is refused the next of every kind`, async () => {
    const teams: number[] = [];
    for (let i = 0; i <= SUBSCRIPTIONS - 1; i++) {
      const created = await rest<{ id: number }>(server.url, 'POST', '/api/teams', { cookie: (await freshUser(server)).cookie, body: { name: `Limit team ${i}`, tag: `LT${i}` } });
      expect(created.status).toBe(201);
      teams.push(created.body.id);
    }
    const code = (await createLobby(server.url, (await freshUser(server)).cookie)).code;
    const socket = await connectOnceFree();
    expect(await request(socket, 'lobby:subscribe', { code })).toMatchObject({ lobby: { code } });
    for (const id of teams.slice(0, SUBSCRIPTIONS - 1)) expect(await request(socket, 'team:subscribe', { id })).toMatchObject({ team: { id } });
    expect(await request(socket, 'team:subscribe', { id: teams[SUBSCRIPTIONS - 1] })).toEqual(overLimit);
    // Refused before anything is read: an unknown thread or tournament gets the 429, not a 404.
    expect(await request(socket, 'thread:subscribe', { id: 99_999_999 })).toEqual(overLimit);
    expect(await request(socket, 'tournament:subscribe', { id: 99_999_999 })).toEqual(overLimit);
    expect(await request(socket, 'lobby:subscribe', { code: 'ZZZZZZ' })).toEqual(overLimit);
    // A team it is in still answers; leaving one makes room for another kind.
    expect(await request(socket, 'team:subscribe', { id: teams[0] })).toMatchObject({ team: { id: teams[0] } });
    expect(await request(socket, 'team:unsubscribe', { id: teams[0] })).toEqual({ ok: true });
    expect(await request(socket, 'team:subscribe', { id: teams[SUBSCRIPTIONS - 1] })).toMatchObject({ team: { id: teams[SUBSCRIPTIONS - 1] } });
    socket.close();
  });
});

describe('lobby creations per user', () => {
  it(`takes ${CREATES} creations a minute from one user, then 429 with Retry-After`, async () => {
    const user = await freshUser(server);
    for (let i = 0; i < CREATES; i++) {
      const lobby = await createLobby(server.url, user.cookie);
      expect((await rest(server.url, 'DELETE', `/api/lobbies/${lobby.code}`, { cookie: user.cookie })).status).toBe(204);
    }
    const response = await fetch(`${server.url}/api/lobbies`, {
      method: 'POST',
      headers: { cookie: user.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'ultiduo' }),
    });
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ error: `rate limit exceeded: ${CREATES} lobby creations per 60 s` });
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another user is not held back by it.
    expect((await rest(server.url, 'POST', '/api/lobbies', { cookie: (await freshUser(server)).cookie, body: { format: 'ultiduo' } })).status).toBe(200);
  });
});
