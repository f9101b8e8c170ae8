import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { createLobby, rest } from '../../realtime/support/rest-client';
import { freshUser } from '../../realtime/support/users';

/*
 * Lobby commands authenticate from a copy of the session user's row at most half a second old
 * (src/identity/recent-users.ts) rather than a query per request. The bound: a change
 * made anywhere, here an operator's SQL, takes effect within a second.
 */
let server: TestServerWithLogin;

beforeAll(async () => {
  server = await startTestServerWithLogin();
});
afterAll(async () => server?.close());

const cancel = async (code: string, cookie: string) => (await rest(server.url, 'DELETE', `/api/lobbies/${code}`, { cookie })).status;

const setAdmin = (userId: number, isAdmin: boolean) =>
  server.server.db.em().execute('update users set is_admin = ? where id = ?', [isAdmin, userId]);

describe('the session user on lobby commands', () => {
  it("takes an operator's SQL grant of is_admin into account within a second", async () => {
    const host = await freshUser(server);
    const operator = await freshUser(server);
    const lobby = await createLobby(server.url, host.cookie);
    // Only the host or an admin may cancel; the row is read (and cached) by this refusal.
    expect(await cancel(lobby.code, operator.cookie)).toBe(403);

    await setAdmin(operator.user.id, true);
    const granted = performance.now();
    let status = 403;
    // Polled every 20 ms: cancel is a lobby command, counted against the per-user command limit (60 per 10 s).
    while (status === 403 && performance.now() - granted < 2_000) {
      status = await cancel(lobby.code, operator.cookie);
      if (status === 403) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const tookMs = performance.now() - granted;

    expect(status).toBe(204);
    expect(tookMs).toBeLessThan(1_000);
  });
});
