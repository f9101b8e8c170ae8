import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextPlatformId, Player } from '../api/lobby/lobby-client';
import { startTestServerWithLogin, type TestServerWithLogin } from '../support/login';
import { figure, timed, until } from '../support/timing';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

describe('a server whose Postgres goes silent (connection open, no answers)', () => {
  let target: TestDatabase;
  let proxy: TcpProxy;
  let server: TestServerWithLogin;
  let host: Player;
  let guest: Player;
  let code: string;
  let map: string;

  beforeAll(async () => {
    target = await createTestDatabase();
    proxy = await startTcpProxy(target.url);
    server = await startTestServerWithLogin({ DATABASE_URL: proxy.url, DATABASE_TIMEOUT_MS: '1000' });
    const login = async () => {
      const { cookie, user } = await server.login(nextPlatformId());
      return new Player(server.url, cookie, user);
    };
    [host, guest] = [await login(), await login()];
    const created = await host.post('/api/lobbies', {});
    expect(created.status).toBe(200);
    code = created.body.code;
    map = created.body.lobby.map_pool[0];
    await guest.command(code, 'join');
    await guest.command(code, 'chat', { message: 'before' });
  }, 60_000);
  afterEach(() => proxy.restore());
  afterAll(async () => {
    proxy?.restore();
    await server?.close();
    await proxy?.close();
    await target?.drop();
  });

  it('answers a route that needs Postgres 503 with Retry-After, bounded by the database timeout', async () => {
    proxy.silence();
    const { ms, value } = await timed(() => fetch(`${server.url}/api/users/card/${host.id}`));
    figure('Postgres silent (DATABASE_TIMEOUT_MS=1000): Postgres route answered 503 in', ms);
    expect(value.status).toBe(503);
    expect(value.headers.get('retry-after')).toBe('1');
    expect(await value.json()).toEqual({ error: expect.any(String) });
    expect(ms).toBeLessThan(2_500);
  });

  it('answers readyz 503 within a second', async () => {
    proxy.silence();
    const { ms, value } = await timed(() => fetch(`${server.url}/readyz`));
    figure('Postgres silent: readyz 503 in', ms);
    expect(value.status).toBe(503);
    expect(await value.json()).toMatchObject({ ok: false, database: false, live_store: true });
    expect(ms).toBeLessThan(1_000);
  });

  it('keeps vote and chat working from the last known user row and ban state', async () => {
    proxy.silence();
    // The first read of each kind waits out the database timeout once; later ones do not wait.
    await guest.command(code, 'vote-map', { map });
    await guest.command(code, 'chat', { message: 'while Postgres is silent' });
    const chat = await timed(() => guest.post(`/api/lobbies/${code}/chat`, { message: 'and again' }));
    figure('Postgres silent: chat answered 200 in', chat.ms);
    expect(chat.value.status).toBe(200);
    expect(chat.ms).toBeLessThan(500);
    expect((await guest.get(`/api/lobbies/${code}/my-vote`)).body).toEqual({ map });
  });

  it('serves Postgres routes again by itself once Postgres answers', async () => {
    proxy.silence();
    expect((await fetch(`${server.url}/api/users/card/${host.id}`)).status).toBe(503);
    proxy.restore();
    const restoredAt = performance.now();
    await until('readyz says ready', async () => ((await fetch(`${server.url}/readyz`)).status === 200 ? true : null), 10_000);
    figure('Postgres answering again: readyz 200 after', performance.now() - restoredAt);
    expect((await fetch(`${server.url}/api/users/card/${host.id}`)).status).toBe(200);
  });
});

describe('a server whose database is emptied under it', () => {
  let server: TestServerWithLogin;

  beforeAll(async () => {
    server = await startTestServerWithLogin();
  }, 60_000);
  afterAll(async () => server?.close());

  it('says not ready once its tables are gone, though the database still answers', async () => {
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    await server.database.db.em().execute('drop schema public cascade');
    await server.database.db.em().execute('create schema public');
    const response = await fetch(`${server.url}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ ok: false, database: false, live_store: true });
  });
});
