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
/** The server's connection pool (src/db/orm.ts's default). */
const POOL_SIZE = 10;

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

  /** Each request as a browser sends it, answered as status and Retry-After. */
  const asGuest = (method: string, path: string, body?: unknown) => () =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { cookie: guest.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const cases: Array<[string, () => Promise<Response>]> = [
    ['a join', () => asGuest('POST', `/api/lobbies/${code}/join`)()],
    ['/auth/me', asGuest('GET', '/auth/me')],
    ['a lobby create', () => asGuest('POST', '/api/lobbies', {})()],
    ['the public summary', () => fetch(`${server.url}/api/public/summary`)],
  ];
  for (const [name, send] of cases) {
    it(`answers ${name} 503 with Retry-After within one bound`, async () => {
      proxy.silence();
      const { ms, value } = await timed(send);
      figure(`Postgres stalled (DATABASE_TIMEOUT_MS=${BOUND_MS}): ${name} answered ${value.status} in`, ms);
      expect({ status: value.status, retryAfter: value.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '1' });
      expect(ms).toBeLessThan(WITHIN_MS);
    });
  }

  it(`answers each of ${3 * POOL_SIZE} concurrent requests (more than the pool's ${POOL_SIZE} connections) 503 with Retry-After within one bound`, async () => {
    proxy.silence();
    const sends = Array.from({ length: 3 * POOL_SIZE }, (_, i) => cases[i % cases.length][1]);
    const answers = await Promise.all(sends.map((send) => timed(send)));
    figure(`Postgres stalled (DATABASE_TIMEOUT_MS=${BOUND_MS}): ${sends.length} concurrent requests, slowest answered in`, Math.max(...answers.map((a) => a.ms)));
    expect(answers.map(({ value }) => ({ status: value.status, retryAfter: value.headers.get('retry-after') }))).toEqual(answers.map(() => ({ status: 503, retryAfter: '1' })));
    for (const { ms } of answers) expect(ms).toBeLessThan(WITHIN_MS);
  });

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
