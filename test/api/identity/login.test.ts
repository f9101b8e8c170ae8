import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSteamApi, type FakeSteamApi } from '../../fakes/fake-steam-api';
import { cookieOf, sessionCookieOf, startLogin, startTestServerWithLogin, type StartedLogin, type TestServerWithLogin } from '../../support/login';

const ADMIN = '76561198000000001';
const PLAYER = '76561198000000002';
const STEAM_KEY = 'steam-web-api-key-for-tests';

let server: TestServerWithLogin;
let steamApi: FakeSteamApi;

beforeAll(async () => {
  steamApi = await startFakeSteamApi({ apiKey: STEAM_KEY, profiles: { [PLAYER]: { personaname: 'Scout Main', avatarfull: 'https://avatars.example/p_full.jpg' } } });
  server = await startTestServerWithLogin({ ADMIN_PLATFORM_IDS: ADMIN, STEAM_API_URL: steamApi.url, STEAM_API_KEY: STEAM_KEY });
});
afterAll(async () => {
  await server?.close();
  await steamApi?.close();
});

const get = (path: string, cookie?: string) =>
  fetch(`${server.url}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });

/** The callback URL on the test server for a (possibly altered) assertion, with return_to's own state. */
function callbackWith(fields: URLSearchParams): string {
  const state = new URL(fields.get('openid.return_to') ?? 'http://x/').searchParams.get('state');
  return `${server.url}/auth/platform/callback?${state === null ? '' : `state=${encodeURIComponent(state)}&`}${fields}`;
}
const callbackUrl = () => `${server.env.PUBLIC_URL ?? 'http://localhost:8080'}/auth/platform/callback`;

describe('logging in through the identity provider', () => {
  it('redirects to the provider with a checkid_setup request whose return_to is PUBLIC_URL/auth/platform/callback with a state', async () => {
    const response = await get('/auth/platform');
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(server.provider.url);
    expect(location.searchParams.get('openid.mode')).toBe('checkid_setup');
    const returnTo = new URL(location.searchParams.get('openid.return_to')!);
    expect(returnTo.origin + returnTo.pathname).toBe(callbackUrl());
    expect(cookieOf(response, 'league_login')).toBe(`league_login=${returnTo.searchParams.get('state')}`);
  });

  it('binds the login to the browser that started it with a short-lived HttpOnly state cookie', async () => {
    const response = await get('/auth/platform');
    expect(response.headers.getSetCookie().join('\n')).toMatch(/^league_login=[A-Za-z0-9_-]{32}; Path=\/auth\/platform; Max-Age=600; HttpOnly; SameSite=Lax$/);
  });

  it('lands on /?logged_in=1 with an HttpOnly, SameSite=Lax session cookie, and spends the state', async () => {
    server.provider.nextLogin(PLAYER);
    const { toProvider, stateCookie } = await startLogin(server);
    const back = new URL((await fetch(toProvider, { redirect: 'manual' })).headers.get('location')!);
    const answer = await get(back.pathname + back.search, stateCookie);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/?logged_in=1');
    const [session, state] = answer.headers.getSetCookie();
    expect(session).toMatch(/^league_session=[^;]+; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/);
    expect(state).toMatch(/^league_login=; Path=\/auth\/platform; Max-Age=0;/);
  });

  it('refuses a callback in a browser that did not start the login (login CSRF)', async () => {
    server.provider.nextLogin(PLAYER);
    const { toProvider } = await startLogin(server); // the attacker's browser
    const back = new URL((await fetch(toProvider, { redirect: 'manual' })).headers.get('location')!);
    const victim = await get(back.pathname + back.search); // no state cookie
    expect(victim.headers.get('location')).toBe('/?login_error=login_not_started');
    expect(sessionCookieOf(victim)).toBeNull();
    const other = await startLogin(server); // the victim started a login of their own
    const swapped = await get(back.pathname + back.search, other.stateCookie);
    expect(swapped.headers.get('location')).toBe('/?login_error=login_not_started');
    expect(sessionCookieOf(swapped)).toBeNull();
  });

  it('makes /auth/me and /api/users/me answer the logged-in user, named from the Steam Web API', async () => {
    const { cookie, user } = await server.login(PLAYER);
    expect(user).toMatchObject({ platform_id: PLAYER, username: 'Scout Main', avatar_url: 'https://avatars.example/p_full.jpg', is_admin: false });
    const me = await (await get('/api/users/me', cookie)).json();
    expect(me).toEqual(user);
  });

  it('gives is_admin to the platform ids listed in ADMIN_PLATFORM_IDS', async () => {
    const { user } = await server.login(ADMIN);
    expect(user.is_admin).toBe(true);
  });

  it('uses a neutral name when the Web API does not know the player', async () => {
    const { user } = await server.login('76561198000000077');
    expect(user.username).toBe('Player 00077');
  });

  it('answers /auth/me with 401 {error} without a session', async () => {
    const response = await get('/auth/me');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });

  it('logs out: the session ends, the cookie is cleared and the answer is a redirect to /', async () => {
    const { cookie } = await server.login(PLAYER);
    const response = await get('/auth/logout', cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
    expect(response.headers.getSetCookie().join('\n')).toMatch(/^league_session=; Path=\/; Max-Age=0;/);
    expect((await get('/auth/me', cookie)).status).toBe(401);
  });

  it.each([
    ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }],
    ['Sec-Fetch-Site: none (typed in)', { 'sec-fetch-site': 'none' }],
    ['a Referer on this site', { referer: 'http://localhost:8080/lobby/AB12' }],
  ])('logs out from a link on this site (%s)', async (_what, headers) => {
    const { cookie } = await server.login(PLAYER);
    const response = await fetch(`${server.url}/auth/logout`, { redirect: 'manual', headers: { cookie, ...headers } });
    expect(response.status).toBe(302);
    expect((await get('/auth/me', cookie)).status).toBe(401);
  });

  it.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }],
    ['a Referer on another site', { referer: 'https://evil.example/page' }],
    ['an Origin of another site', { origin: 'https://evil.example' }],
  ])('does not log out on a cross-site request (%s): 403 {error}, the session lives on', async (_what, headers) => {
    const { cookie } = await server.login(PLAYER);
    const response = await fetch(`${server.url}/auth/logout`, { redirect: 'manual', headers: { cookie, ...headers } });
    expect(response.status).toBe(403);
    expect((await response.json()).error).toMatch(/cross-site/);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect((await get('/auth/me', cookie)).status).toBe(200);
  });
});

describe('a login assertion that does not hold', () => {
  let started: StartedLogin;
  const returnTo = () => started.returnTo;
  beforeEach(async () => {
    started = await startLogin(server);
  });

  async function expectRefused(url: string, reason: string): Promise<void> {
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: started.stateCookie } });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`/?login_error=${reason}`);
    expect(sessionCookieOf(response)).toBeNull();
  }

  it('is refused when replayed: the same response_nonce logs in once', async () => {
    const fields = server.provider.assertionFor(PLAYER, returnTo());
    const first = await fetch(callbackWith(fields), { redirect: 'manual', headers: { cookie: started.stateCookie } });
    expect(first.headers.get('location')).toBe('/?logged_in=1');
    await expectRefused(callbackWith(fields), 'replayed_nonce');
  });

  it('is refused when the claimed id was swapped after signing', async () => {
    const fields = server.provider.assertionFor(PLAYER, returnTo());
    fields.set('openid.claimed_id', `https://steamcommunity.com/openid/id/${ADMIN}`);
    fields.set('openid.identity', `https://steamcommunity.com/openid/id/${ADMIN}`);
    await expectRefused(callbackWith(fields), 'not_verified');
  });

  it('is refused when the signature was altered', async () => {
    const fields = server.provider.assertionFor(PLAYER, returnTo());
    fields.set('openid.sig', Buffer.from('forged').toString('base64'));
    await expectRefused(callbackWith(fields), 'not_verified');
  });

  it('is refused when return_to points elsewhere', async () => {
    const fields = server.provider.assertionFor(PLAYER, `https://evil.example/auth/platform/callback?state=${new URL(returnTo()).searchParams.get('state')}`);
    await expectRefused(callbackWith(fields), 'bad_return_to');
  });

  it('is refused when op_endpoint is not the configured provider', async () => {
    const fields = server.provider.assertionFor(PLAYER, returnTo());
    fields.set('openid.op_endpoint', 'https://evil.example/openid/login');
    await expectRefused(callbackWith(fields), 'bad_endpoint');
  });

  it('is refused when the claimed id is not a platform id', async () => {
    const fields = server.provider.assertionFor(PLAYER, returnTo());
    fields.set('openid.claimed_id', 'https://evil.example/id/1');
    fields.set('openid.identity', 'https://evil.example/id/1');
    await expectRefused(callbackWith(fields), 'bad_claimed_id');
  });

  it('is refused when the user cancelled at the provider', async () => {
    const { toProvider } = started;
    const back = new URL((await fetch(toProvider, { redirect: 'manual' })).headers.get('location')!);
    await expectRefused(`${server.url}${back.pathname}${back.search}`, 'cancelled');
  });
});
