import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LobbyDetail } from '../../schema/lobby';
import { READY_CHECK_MS, READY_FLAG_MS } from '../../src/domain/lobby/deadlines';
import { startTestServerWithLogin, type LoggedIn, type TestServerWithLogin } from '../support/login';
import { createLobby, lobbyCommand } from './support/rest-client';
import { closeAllClients, connect, nextEvent, request, type LeagueClient } from './support/socket-client';
import { freshUser } from './support/users';

/*
 * Deadlines pass with no command: the engine's deadline worker notices them (it polls the
 * server's clock) and the result must still reach the lobby's sockets. The server runs on a
 * clock this file moves forward, so nothing waits for real minutes.
 */
let now = Date.now();
let server: TestServerWithLogin;

beforeAll(async () => {
  server = await startTestServerWithLogin({}, { clock: () => now });
});

afterAll(async () => {
  closeAllClients();
  await server?.close();
});

async function expectOk(answer: Promise<{ status: number; body: unknown }>): Promise<void> {
  const { status, body } = await answer;
  if (status !== 200) throw new Error(`answered ${status}: ${JSON.stringify(body)}`);
}

/** An ultiduo lobby taken through the draft into its ready check, watched by a socket. */
async function lobbyInReadyCheck(): Promise<{ host: LoggedIn; watcher: LeagueClient; lobby: LobbyDetail }> {
  const host = await freshUser(server);
  const players = [await freshUser(server), await freshUser(server), await freshUser(server)];
  const lobby = await createLobby(server.url, host.cookie, { format: 'ultiduo' });
  for (const player of players) await expectOk(lobbyCommand(server.url, lobby.code, 'join', player.cookie));
  const watcher = await connect(server.url);
  await request(watcher, 'lobby:subscribe', { code: lobby.code });

  const readyCheck = nextEvent(watcher, 'lobby:update', (u) => u.lobby.phase === 'ready_check');
  await expectOk(lobbyCommand(server.url, lobby.code, 'start-draft', host.cookie));
  // Equal ratings: the earliest joiners captain (host red, first player blu); red picks first.
  await expectOk(lobbyCommand(server.url, lobby.code, 'pick', host.cookie, { user_id: players[1].user.id }));
  await expectOk(lobbyCommand(server.url, lobby.code, 'pick', players[0].cookie, { user_id: players[2].user.id }));
  return { host, watcher, lobby: (await readyCheck).lobby };
}

function hostSlot(lobby: LobbyDetail, hostId: number) {
  return [...lobby.teams.red, ...lobby.teams.blu].find((slot) => slot.user?.id === hostId);
}

describe('deadlines passing without a command', () => {
  it('push lobby:update when the ready check times out', async () => {
    const { watcher, lobby } = await lobbyInReadyCheck();

    const timedOut = nextEvent(watcher, 'lobby:update', (u) => u.lobby.phase !== 'ready_check');
    now += READY_CHECK_MS + 1_000;

    const { version, lobby: after } = await timedOut;
    expect(after.phase).toBe('drafting');
    expect(after.ready_check_deadline).toBeNull();
    expect(version).toBe(lobby.version + 1);
  });

  it('push lobby:update when a ready flag runs out', async () => {
    const { host, watcher, lobby } = await lobbyInReadyCheck();
    const raised = nextEvent(watcher, 'lobby:update', (u) => hostSlot(u.lobby, host.user.id)?.ready === true);
    await expectOk(lobbyCommand(server.url, lobby.code, 'ready', host.cookie));
    await raised;

    const lapsed = nextEvent(watcher, 'lobby:update', (u) => hostSlot(u.lobby, host.user.id)?.ready === false);
    now += READY_FLAG_MS + 1_000;

    const { lobby: after } = await lapsed;
    expect(after.phase).toBe('ready_check');
  });
});
