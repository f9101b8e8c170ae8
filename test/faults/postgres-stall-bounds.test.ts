import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextPlatformId, type Player } from '../api/lobby/lobby-client';
import { startLogin, type TestServerWithLogin } from '../support/login';
import type { TcpProxy } from '../support/tcp-proxy';
import { figure, timed, until } from '../support/timing';
import { startServerBehindProxy, type ServerBehindProxy } from './support/postgres-behind-proxy';

/**
 * Issue 21, item 3: with Postgres stalled (connections open, no answers), a request that makes
 * several database calls used to wait out the bound once per call (join 9 s, /auth/me 7 s with a
 * 3 s bound). After the first call meets the stall, the rest fail at once: each answer is a 503
 * with Retry-After within about one bound.
 */
const BOUND_MS = 1_000;
/** One bound (plus the client-side read timeout's 500 ms margin) and scheduling on a busy box. */
const WITHIN_MS = BOUND_MS + 1_500;

describe('every request bounded while Postgres is stalled', () => {
  let world: ServerBehindProxy;
  let proxy: TcpProxy;
  let server: TestServerWithLogin;
  let guest: Player;
  let code: string;

  beforeAll(async () => {
    world = await startServerBehindProxy(BOUND_MS);
    ({ proxy, server } = world);
    const host = await world.login();
    guest = await world.login();
    const created = await host.post('/api/lobbies', {});
    expect(created.status).toBe(200);
    code = created.body.code;
  }, 60_000);
  afterEach(async () => {
    proxy.restore();
    await until('Postgres routes answer again', async () => ((await fetch(`${server.url}/readyz`)).status === 200 ? true : null), 10_000);
  });
  afterAll(async () => world?.close());

  const cases: Array<[string, () => Promise<{ status: number; headers?: Headers }>]> = [
    ['a join', () => guest.post(`/api/lobbies/${code}/join`)],
    ['/auth/me', () => fetch(`${server.url}/auth/me`, { headers: { cookie: guest.cookie } })],
    ['a lobby create', () => guest.post('/api/lobbies', {})],
    ['the public summary', () => fetch(`${server.url}/api/public/summary`)],
  ];
  for (const [name, send] of cases) {
    it(`answers ${name} 503 within one bound`, async () => {
      proxy.silence();
      const { ms, value } = await timed(send);
      figure(`Postgres stalled (DATABASE_TIMEOUT_MS=${BOUND_MS}): ${name} answered ${value.status} in`, ms);
      expect(value.status).toBe(503);
      expect(ms).toBeLessThan(WITHIN_MS);
    });
  }

  it('answers a login whose database steps cannot run with a 503 page and Retry-After, not a redirect', async () => {
    server.provider.nextLogin(nextPlatformId());
    const { toProvider, stateCookie } = await startLogin(server);
    const back = new URL((await fetch(toProvider, { redirect: 'manual' })).headers.get('location')!);
    proxy.silence();
    const { ms, value } = await timed(() => fetch(new URL(back.pathname + back.search, server.url), { redirect: 'manual', headers: { cookie: stateCookie } }));
    figure(`Postgres stalled (DATABASE_TIMEOUT_MS=${BOUND_MS}): login callback answered ${value.status} in`, ms);
    expect(value.status).toBe(503);
    expect(value.headers.get('retry-after')).toBe('1');
    expect(value.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await value.text()).toContain('Login is unavailable for a moment');
    expect(ms).toBeLessThan(WITHIN_MS);
  });
});
