import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisLiveStore, type RedisLiveStore } from '../../src/live/redis-live-store';
import { LiveStoreUnavailable } from '../../src/live/live-store-unavailable';
import { nextPlatformId, Player } from '../api/lobby/lobby-client';
import { startTestServerWithLogin, type TestServerWithLogin } from '../support/login';
import { figure, timed, until } from '../support/timing';
import { startOwnRedis, type OwnRedis } from '../support/own-redis';
import { connect } from '../realtime/support/socket-client';
import { pushText } from '../contract/live-store-harness';

describe('the Redis live store when Redis stops answering', () => {
  let redis: OwnRedis;
  let store: RedisLiveStore;

  beforeAll(async () => {
    redis = await startOwnRedis();
    store = await connectRedisLiveStore({ url: redis.url, prefix: 'fence:', commandTimeoutMs: 500, onError: () => undefined });
  });
  afterEach(() => redis.resume());
  afterAll(async () => {
    await store?.close();
    await redis?.stop();
  });

  it('fails a write with LiveStoreUnavailable after its timeout, and the write is not applied when Redis resumes', async () => {
    await store.compareAndSet([{ key: 'doc', expectedVersion: 0, value: { n: 1 } }]);
    redis.pause();
    const { ms, value } = await timed(() => store.compareAndSet([{ key: 'doc', expectedVersion: 1, value: { n: 2 } }]).catch((e: unknown) => e));
    expect(value).toBeInstanceOf(LiveStoreUnavailable);
    expect(ms).toBeLessThan(900);
    redis.resume();
    const doc = await until('the store answers again', () => store.get('doc').catch(() => null), 5_000);
    expect(doc).toEqual({ version: 1, value: { n: 1 } });
  });

  it('refuses plain writes sent before a pause once their caller has given up (push, counter, schedule)', async () => {
    redis.pause();
    const failures = await Promise.all([
      pushText(store, 'chat', 'late').catch((e: unknown) => e),
      store.increment('counter').catch((e: unknown) => e),
      store.schedule('queue', 'member', 1).catch((e: unknown) => e),
    ]);
    for (const failure of failures) expect(failure).toBeInstanceOf(LiveStoreUnavailable);
    redis.resume();
    await until('the store answers again', () => store.get('x').then(() => true, () => null), 5_000);
    expect(await store.listRange('chat')).toEqual([]);
    expect(await store.claimDue('queue', 10, 10)).toEqual([]);
    expect(await store.increment('counter')).toBe(1);
  });

  it('answers at once while Redis is known to be down, and again by itself once it is back', async () => {
    redis.pause();
    await store.get('a').catch(() => undefined);
    const { ms, value } = await timed(() => store.get('a').catch((e: unknown) => e));
    expect(value).toBeInstanceOf(LiveStoreUnavailable);
    expect(ms).toBeLessThan(50);
    redis.resume();
    const recovered = await timed(() => until('the store answers again', () => store.get('a').then(() => true, () => null), 5_000));
    figure('Redis paused: store answers again after SIGCONT', recovered.ms);
    figure('Redis known down: a call fails in', ms);
    expect(recovered.ms).toBeLessThan(1_000);
  });
});

describe('a server whose Redis stops answering', () => {
  let redis: OwnRedis;
  let server: TestServerWithLogin;
  let host: Player;
  let guest: Player;
  let code: string;

  beforeAll(async () => {
    redis = await startOwnRedis({ appendonly: true });
    server = await startTestServerWithLogin({ REDIS_URL: redis.url, REDIS_PREFIX: 'ff:' });
    const login = async () => {
      const { cookie, user } = await server.login(nextPlatformId());
      return new Player(server.url, cookie, user);
    };
    host = await login();
    guest = await login();
    const created = await host.post('/api/lobbies', {});
    expect(created.status).toBe(200);
    code = created.body.code;
  }, 60_000);
  afterEach(() => redis.resume());
  afterAll(async () => {
    redis?.resume();
    await server?.close();
    await redis?.stop();
  });

  it('answers a lobby command 503 with Retry-After within about a second while Redis is paused', async () => {
    redis.pause();
    const started = performance.now();
    const response = await fetch(`${server.url}/api/lobbies/${code}/join`, {
      method: 'POST', headers: { cookie: guest.cookie, 'content-type': 'application/json' }, body: '{}',
    });
    const ms = performance.now() - started;
    figure('Redis paused: first lobby command answered 503 in', ms);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toEqual({ error: expect.any(String) });
    expect(ms).toBeLessThan(1_500);
  });

  it('refuses a new socket handshake with 503 within about a second instead of holding it', async () => {
    redis.pause();
    const { ms, value } = await timed(() => connect(server.url, { cookie: guest.cookie }).then(() => null, (e: { data?: unknown }) => e.data));
    figure('Redis paused: socket handshake refused 503 in', ms);
    expect(value).toEqual({ status: 503, error: expect.any(String), retry_after: 1 });
    expect(ms).toBeLessThan(1_500);
  });

  it('answers readyz 503 within a second while Redis is paused', async () => {
    redis.pause();
    const { ms, value } = await timed(() => fetch(`${server.url}/readyz`));
    figure('Redis paused: readyz 503 in', ms);
    expect(value.status).toBe(503);
    expect(await value.json()).toMatchObject({ ok: false, live_store: false });
    expect(ms).toBeLessThan(1_000);
  });

  it('never applies later a command it answered 503, and serves again by itself when Redis resumes', async () => {
    redis.pause();
    const refused = await Promise.all([0, 1, 2].map(() => guest.post(`/api/lobbies/${code}/join`)));
    expect(refused.map((r) => r.status)).toEqual([503, 503, 503]);
    redis.resume();
    const ready = await timed(() => until('readyz says ready', async () => ((await fetch(`${server.url}/readyz`)).status === 200 ? true : null), 5_000));
    figure('Redis resumed: readyz 200 again after', ready.ms);
    const lobby = await host.get(`/api/lobbies/${code}`);
    expect(lobby.status).toBe(200);
    expect(lobby.body.pool.map((u: { id: number }) => u.id)).toEqual([host.id]);
    await guest.command(code, 'join');
  });

  it('answers 503 while Redis is down and recovers by itself when it restarts', async () => {
    await redis.kill();
    const down = await timed(() => host.get(`/api/lobbies/${code}`));
    figure('Redis killed: lobby read answered 503 in', down.ms);
    expect(down.value.status).toBe(503);
    expect(down.ms).toBeLessThan(1_000);
    await redis.restart();
    const restartedAt = performance.now();
    const back = await until('the lobby reads again', async () => {
      const answer = await host.get(`/api/lobbies/${code}`);
      return answer.status === 200 ? answer : null;
    }, 10_000);
    figure('Redis restarted (AOF): lobby read 200 again after', performance.now() - restartedAt);
    expect(back.body.code).toBe(code);
  });
});
