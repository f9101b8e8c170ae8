import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { startServerProcess, type SpawnedServer } from '../../support/spawn-server';
import { call, grantPremium, issueKey, movableClock } from './identity-fixtures';

const MEMBER = '76561198000000401';
const LIMIT = 60;

describe('the per-key rate limit on one instance', () => {
  const clock = movableClock();
  let server: TestServerWithLogin;
  let cookie: string;

  beforeAll(async () => {
    server = await startTestServerWithLogin({}, { clock: clock.now });
    const member = await server.login(MEMBER);
    cookie = member.cookie;
    await grantPremium(server, member.user.id, clock.now());
  });
  afterAll(async () => server?.close());

  const use = (raw: string) => call(server, '/api/premium/api-keys/current', { bearer: raw });

  it('allows 60 requests a minute and answers the 61st with 429 {error} and Retry-After in whole seconds', async () => {
    const key = await issueKey(server, cookie, 'premium');
    for (let i = 0; i < LIMIT; i++) expect((await use(key.raw)).status).toBe(200);
    const refused = await use(key.raw);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: expect.any(String) });
    const retryAfter = refused.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  });

  it('slides: requests leave the window a minute after they were made', async () => {
    const key = await issueKey(server, cookie, 'premium');
    for (let i = 0; i < 30; i++) await use(key.raw);
    clock.advanceMs(30_000);
    for (let i = 0; i < 30; i++) await use(key.raw);
    expect((await use(key.raw)).status).toBe(429);
    clock.advanceMs(30_001);
    // The first 30 have left the window, the last 30 have not.
    for (let i = 0; i < 30; i++) expect((await use(key.raw)).status).toBe(200);
    expect((await use(key.raw)).status).toBe(429);
  });

  it('counts each key on its own', async () => {
    const busy = await issueKey(server, cookie, 'premium');
    const idle = await issueKey(server, cookie, 'premium');
    for (let i = 0; i <= LIMIT; i++) await use(busy.raw);
    expect((await use(busy.raw)).status).toBe(429);
    expect((await use(idle.raw)).status).toBe(200);
  });
});

// Two processes, because only one uWS-attached server fits in a process (docs/design/ARCHITECTURE.md).
const sharedRedis = Boolean(process.env.REDIS_URL);
if (!sharedRedis && process.env.CI) throw new Error('REDIS_URL must be set under CI: the cross-instance rate limit needs Redis');

describe.runIf(sharedRedis)('the per-key rate limit across two instances sharing Redis', () => {
  let first: TestServerWithLogin;
  let second: SpawnedServer;

  beforeAll(async () => {
    first = await startTestServerWithLogin();
    second = await startServerProcess({ ...first.env, PORT: '' }, 45_000);
  }, 60_000);

  afterAll(async () => {
    await second?.stop();
    await first?.close();
  });

  it('holds 60 requests a minute for a key spread over both', async () => {
    const member = await first.login(MEMBER);
    await grantPremium(first, member.user.id, Date.now());
    const key = await issueKey(first, member.cookie, 'premium');
    const servers = [first, second];
    for (let i = 0; i < LIMIT; i++) {
      expect((await call(servers[i % 2], '/api/premium/api-keys/current', { bearer: key.raw })).status).toBe(200);
    }
    for (const server of servers) {
      const refused = await call(server, '/api/premium/api-keys/current', { bearer: key.raw });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    }
  });
});
