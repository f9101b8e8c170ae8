import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSteamApi, type FakeSteamApi } from '../../fakes/fake-steam-api';
import { sessionCookieOf, startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';

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

/** The callback URL on the test server for a (possibly altered) assertion. */
function callbackWith(fields: URLSearchParams): string {
  return `${server.url}/auth/platform/callback?${fields}`;
}
const returnTo = () => `${server.env.PUBLIC_URL ?? 'http://localhost:8080'}/auth/platform/callback`;

describe('logging in through the identity provider', () => {
  it('redirects to the provider with a checkid_setup request whose return_to is PUBLIC_URL/auth/platform/callback', async () => {
    const response = await get('/auth/platform');
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(server.provider.url);
    expect(location.searchParams.get('openid.mode')).toBe('checkid_setup');
    expect(location.searchParams.get('openid.return_to')).toBe(returnTo());
  });

  it('lands on /?logged_in=1 with an HttpOnly, SameSite=Lax session cookie', async () => {
    server.provider.nextLogin(PLAYER);
    const toProvider = (await get('/auth/platform')).headers.get('location')!;
    const back = new URL((await fetch(toProvider, { redirect: 'manual' })).headers.get('location')!);
    const answer = await get(back.pathname + back.search);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/?logged_in=1');
    const setCookie = answer.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(/^league_session=[^;]+; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/);
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
});

describe('a login assertion that does not hold', () => {
  async function expectRefused(url: string, reason: string): Promise<void> {
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`/?login_error=${reason}`);
    expect(sessionCookieOf(response)).toBeNull();
  }

  it('is refused when replayed: the same response_nonce logs in once', async () => {
    const fields = server.provider.assertionFor(PLAYER, returnTo());
    const first = await fetch(callbackWith(fields), { redirect: 'manual' });
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
    const fields = server.provider.assertionFor(PLAYER, 'https://evil.example/auth/platform/callback');
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
    const toProvider = (await get('/auth/platform')).headers.get('location')!;
    const back = new URL((await fetch(toProvider, { redirect: 'manual' })).headers.get('location')!);
    await expectRefused(`${server.url}${back.pathname}${back.search}`, 'cancelled');
  });
});
