import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, sessionCookieOf, startLogin, startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { call, movableClock } from './identity-fixtures';

const PLAYER = '76561198000000901';
const clock = movableClock();
let server: TestServerWithLogin;

beforeAll(async () => {
  server = await startTestServerWithLogin({}, { clock: clock.now });
});
afterAll(async () => server?.close());

describe('sessions', () => {
  it('are refused when the cookie was tampered with', async () => {
    const { cookie } = await server.login(PLAYER);
    const [id, mac] = cookie.slice('league_session='.length).split('.');
    const forged = `league_session=${id}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await call(server, '/auth/me', { cookie: forged })).status).toBe(401);
  });

  it('are opaque: the cookie carries no user id', async () => {
    const { cookie, user } = await server.login(PLAYER);
    expect(cookie).not.toContain(user.platform_id);
    expect(cookie.slice('league_session='.length)).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
  });

  it('end at logout only for the browser that logged out', async () => {
    const first = await server.login(PLAYER);
    const second = await server.login(PLAYER);
    await call(server, '/auth/logout', { cookie: first.cookie });
    expect((await call(server, '/auth/me', { cookie: first.cookie })).status).toBe(401);
    expect((await call(server, '/auth/me', { cookie: second.cookie })).status).toBe(200);
  });

  // Last: it moves the server clock, and logins need a provider nonce close to the server's now.
  it('slide: activity after an hour renews the cookie for another 30 days', async () => {
    const { cookie } = await server.login(PLAYER);
    const fresh = await call(server, '/api/users/me', { cookie });
    expect(fresh.headers.getSetCookie()).toEqual([]);
    clock.advanceMs(2 * 60 * 60 * 1000);
    const later = await call(server, '/api/users/me', { cookie });
    expect(later.status).toBe(200);
    expect(later.headers.getSetCookie().join('\n')).toMatch(/^league_session=[^;]+; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/);
  });

});

describe('with an https PUBLIC_URL', () => {
  let secure: TestServerWithLogin;
  beforeAll(async () => {
    secure = await startTestServerWithLogin({ PUBLIC_URL: 'https://league.example' });
  });
  afterAll(async () => secure?.close());

  it('marks the session cookie Secure', async () => {
    secure.provider.nextLogin(PLAYER);
    const { toProvider, stateCookie } = await startLogin(secure);
    const back = new URL((await fetch(toProvider, { redirect: 'manual' })).headers.get('location')!);
    expect(back.origin).toBe('https://league.example');
    const answer = await call(secure, back.pathname + back.search, { cookie: stateCookie });
    expect(sessionCookieOf(answer)).not.toBeNull();
    expect(answer.headers.getSetCookie()[0]).toMatch(/; Secure$/);
    expect(answer.headers.getSetCookie()[1]).toMatch(/^league_login=;.*; Secure;/);
  });

  it('still logs in through loginAs', async () => {
    const { user } = await loginAs(secure, secure.provider, PLAYER);
    expect(user.platform_id).toBe(PLAYER);
  });
});
