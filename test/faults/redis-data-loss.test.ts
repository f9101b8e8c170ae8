import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lobbyKey, lobbyMemberKey, OPEN_LOBBIES } from '../../src/engine/live-keys';
import { connectRedisLiveStore, type RedisLiveStore } from '../../src/live/redis-live-store';
import { lobbyAt, nextPlatformId, Player } from '../api/lobby/lobby-client';
import { sessionCookieOf, startLogin, startTestServerWithLogin, type TestServerWithLogin } from '../support/login';
import { startOwnRedis, type OwnRedis } from '../support/own-redis';
import { figure, timed, until } from '../support/timing';

const PREFIX = 'loss:';

describe('a server whose Redis loses its data (FLUSHALL) while it runs', () => {
  let redis: OwnRedis;
  let server: TestServerWithLogin;
  let store: RedisLiveStore;

  beforeAll(async () => {
    redis = await startOwnRedis();
    server = await startTestServerWithLogin({ REDIS_URL: redis.url, REDIS_PREFIX: PREFIX });
    store = await connectRedisLiveStore({ url: redis.url, prefix: PREFIX });
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await server?.close();
    await redis?.stop();
  });

  const login = async (platformId = nextPlatformId()) => {
    const { cookie, user } = await server.login(platformId);
    return new Player(server.url, cookie, user);
  };

  it('rebuilds every open lobby, the list and the member index at once, above every version served', async () => {
    const hosts = [await login(), await login()];
    const guestId = nextPlatformId();
    const guest = await login(guestId);
    const codes: string[] = [];
    for (const host of hosts) codes.push((await host.post('/api/lobbies', {})).body.code);
    await guest.command(codes[0], 'join');
    const map = (await lobbyAt(server.url, codes[0])).map_pool[0];
    // Votes are not saved to Postgres: the version served runs ahead of the last saved one.
    for (const voter of [hosts[0], guest]) await voter.command(codes[0], 'vote-map', { map });
    const served = (await lobbyAt(server.url, codes[0])).version;

    await redis.command('FLUSHALL');
    // Nobody touches the lobbies: the loss is found by the marker and the rebuild runs by itself.
    const rebuilt = await timed(() =>
      until('every lobby, its list entry and the member index are back', async () => {
        const [docs, listed, member] = await Promise.all([
          store.getMany(codes.map(lobbyKey)), store.scoreRange(OPEN_LOBBIES, 0, Infinity), store.get(lobbyMemberKey(guest.id)),
        ]);
        return docs.every((doc) => doc !== null) && codes.every((code) => listed.includes(code)) && member !== null ? true : null;
      }, 5_000),
    );
    figure('FLUSHALL: open lobbies, list and member index rebuilt after', rebuilt.ms);
    expect(rebuilt.ms).toBeLessThan(3_000);
    expect((await lobbyAt(server.url, codes[0])).version).toBeGreaterThan(served);

    // Sessions lived in Redis only: everyone logs in again, and the one-lobby rule still holds.
    expect((await guest.get('/auth/me')).status).toBe(401);
    const again = await login(guestId);
    expect((await again.post('/api/lobbies', {})).status).toBe(409);
  });

  it('still refuses a login assertion used before the loss', async () => {
    const started = await startLogin(server);
    const fields = server.provider.assertionFor(nextPlatformId(), started.returnTo);
    const back = new URL(started.returnTo);
    for (const [name, value] of fields) back.searchParams.append(name, value);
    const callback = new URL(back.pathname + back.search, server.url);
    const headers = { cookie: started.stateCookie };
    expect((await fetch(callback, { redirect: 'manual', headers })).headers.get('location')).toBe('/?logged_in=1');
    await redis.command('FLUSHALL');
    const replay = await fetch(callback, { redirect: 'manual', headers });
    expect(replay.headers.get('location')).toBe('/?login_error=replayed_nonce');
    expect(sessionCookieOf(replay)).toBeNull();
  });
});
