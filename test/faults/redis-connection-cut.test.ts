import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisLiveStore } from '../../src/live/redis-live-store';
import { startOwnRedis, type OwnRedis } from '../support/own-redis';
import { startTcpProxy } from '../support/tcp-proxy';

describe('a live store whose Redis connections are cut', () => {
  let redis: OwnRedis;

  beforeAll(async () => {
    redis = await startOwnRedis();
  }, 30_000);
  afterAll(async () => {
    await redis?.stop();
  });

  it('answers again soon after a cut in which Redis was reachable but closed each connection at once', async () => {
    // A proxy or load balancer in front of Redis accepts and closes while its target is down:
    // node-redis before 5.11 took a connection closed during its handshake for a ready one, for good.
    const proxy = await startTcpProxy(redis.url);
    const store = await connectRedisLiveStore({ url: proxy.url, prefix: 'cut:', onError: () => undefined });
    try {
      proxy.refuse();
      await new Promise((resolve) => setTimeout(resolve, 20));
      proxy.restore();

      await expect.poll(() => store.get('anything').then(() => 'answered', () => 'unavailable'), { timeout: 2_000 }).toBe('answered');
    } finally {
      await store.close();
      await proxy.close();
    }
  });
});
