import { afterAll, beforeAll, expect, it } from 'vitest';
import { startOwnRedis, type OwnRedis } from '../support/own-redis';
import { startTestServer, type TestServer } from '../support/test-server';

/*
 * The raw public reads (the production default) go through the one exchange: a live store that
 * cannot answer is 503 with Retry-After within the configured timeout, as every route answers it,
 * not a 500.
 */
let redis: OwnRedis;
let t: TestServer;

beforeAll(async () => {
  redis = await startOwnRedis();
  t = await startTestServer({ REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '300' });
}, 60_000);
afterAll(async () => {
  redis?.resume();
  await t?.close();
  await redis?.stop();
});

it('a native public read that needs the paused live store answers 503 with Retry-After within the timeout', async () => {
  redis.pause();
  try {
    const started = performance.now();
    const res = await fetch(`${t.url}/api/public/lobbies`);
    const ms = performance.now() - started;
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toEqual({ error: expect.stringMatching(/temporarily unavailable/) });
    expect(ms).toBeLessThan(3_000);
  } finally {
    redis.resume();
  }
});
