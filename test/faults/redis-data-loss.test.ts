import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READY_CHECK_MS } from '../../src/domain/lobby';
import { LOBBY_DEADLINES, lobbyKey, lobbyMemberKey, OPEN_LOBBIES } from '../../src/engine/live-keys';
import { connectRedisLiveStore, type RedisLiveStore } from '../../src/live/redis-live-store';
import { draftAll, lobbyAt, nextPlatformId, Player } from '../api/lobby/lobby-client';
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

describe('a pending ready check when Redis loses its data', () => {
  let redis: OwnRedis;
  let server: TestServerWithLogin;
  let store: RedisLiveStore;
  /** Real time plus what the test skips, shared with the server (the ready check lasts a minute). */
  const clock = { skipped: 0 };

  beforeAll(async () => {
    redis = await startOwnRedis();
    server = await startTestServerWithLogin({ REDIS_URL: redis.url, REDIS_PREFIX: PREFIX }, { clock: () => Date.now() + clock.skipped });
    store = await connectRedisLiveStore({ url: redis.url, prefix: PREFIX });
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await server?.close();
    await redis?.stop();
  });

  it('still times out: its deadline is rebuilt with the lobby and fires when due', async () => {
    const players: Player[] = [];
    for (let i = 0; i < 4; i++) {
      const { cookie, user } = await server.login(nextPlatformId());
      players.push(new Player(server.url, cookie, user));
    }
    const [host, ...rest] = players;
    const code = (await host.post('/api/lobbies', { format: 'ultiduo' })).body.code as string;
    for (const player of rest) await player.command(code, 'join');
    await host.command(code, 'set-captain', { user_id: host.id });
    await host.command(code, 'set-captain', { user_id: rest[0].id });
    await host.command(code, 'start-draft');
    expect((await draftAll(server.url, code, players)).phase).toBe('ready_check');

    await redis.command('FLUSHALL');
    await until('the lobby and its ready-check deadline are back', async () => {
      const [doc, due] = await Promise.all([store.get(lobbyKey(code)), store.scoreRange(LOBBY_DEADLINES, 0, Infinity)]);
      return doc !== null && due.includes(code) ? true : null;
    }, 5_000);
    expect((await lobbyAt(server.url, code)).phase).toBe('ready_check');

    // Nobody readied up: once the minute is over, the check fails and the lobby drafts again.
    clock.skipped += READY_CHECK_MS + 1_000;
    const after = await until('the ready check timed out', async () => {
      const lobby = await lobbyAt(server.url, code);
      return lobby.phase === 'drafting' ? lobby : null;
    }, 5_000);
    expect(after.pool.length).toBeGreaterThan(0);
  });
});
