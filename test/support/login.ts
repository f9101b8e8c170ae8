import type { UserSelf } from '../../schema/identity';
import type { ServerOptions } from '../../src/main';
import { startFakeSteamOpenId, type FakeSteamOpenId } from '../fakes/fake-steam-openid';
import { startTestServer, type TestServer } from './test-server';

export interface LoggedIn {
  /** `league_session=<value>`, ready for a Cookie header. */
  cookie: string;
  user: UserSelf;
}

/**
 * Logs in through the real flow over HTTP, as a browser would: GET /auth/platform, follow the
 * redirect to the (fake) provider, follow its redirect back to the callback, keep the cookie.
 * PUBLIC_URL names the site, not the ephemeral test port, so the callback's origin is swapped
 * for the server's; openid.return_to itself is left untouched and is what the server checks.
 */
export async function loginAs(server: { url: string }, provider: FakeSteamOpenId, platformId: string): Promise<LoggedIn> {
  provider.nextLogin(platformId);
  const { toProvider, stateCookie } = await startLogin(server);
  const assertion = await fetch(toProvider, { redirect: 'manual' });
  const back = new URL(expectRedirect(assertion, 'the OpenID provider'));
  const callback = new URL(back.pathname + back.search, server.url);
  const answer = await fetch(callback, { redirect: 'manual', headers: { cookie: stateCookie } });
  const landing = expectRedirect(answer, 'GET /auth/platform/callback');
  const cookie = sessionCookieOf(answer);
  if (!cookie) throw new Error(`login of ${platformId} set no session cookie (redirected to ${landing})`);
  const me = await fetch(`${server.url}/auth/me`, { headers: { cookie } });
  if (me.status !== 200) throw new Error(`GET /auth/me after login answered ${me.status}`);
  return { cookie, user: (await me.json()) as UserSelf };
}

export interface StartedLogin {
  /** The provider's checkid_setup URL the browser is sent to. */
  toProvider: string;
  /** `league_login=<state>`: the browser that started the login carries it to the callback. */
  stateCookie: string;
  /** The return_to sent to the provider (PUBLIC_URL's callback with the state). */
  returnTo: string;
}

/** GET /auth/platform as a browser does: where it is sent, and the login-state cookie it keeps. */
export async function startLogin(server: { url: string }): Promise<StartedLogin> {
  const start = await fetch(`${server.url}/auth/platform`, { redirect: 'manual' });
  const toProvider = expectRedirect(start, 'GET /auth/platform');
  const stateCookie = cookieOf(start, 'league_login');
  if (!stateCookie) throw new Error('GET /auth/platform set no league_login state cookie');
  return { toProvider, stateCookie, returnTo: new URL(toProvider).searchParams.get('openid.return_to')! };
}

/** The `name=value` part of a non-empty Set-Cookie for `name`, or null. */
export function cookieOf(response: Response, name: string): string | null {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0];
    if (pair.startsWith(`${name}=`) && pair.length > name.length + 1) return pair;
  }
  return null;
}

/** The `name=value` part of the league_session Set-Cookie, or null. */
export const sessionCookieOf = (response: Response): string | null => cookieOf(response, 'league_session');

function expectRedirect(response: Response, what: string): string {
  const location = response.headers.get('location');
  if (response.status !== 302 || !location) throw new Error(`${what} answered ${response.status}, expected a 302`);
  return location;
}

export interface TestServerWithLogin extends TestServer {
  provider: FakeSteamOpenId;
  login(platformId: string): Promise<LoggedIn>;
}

/** A test server whose STEAM_OPENID_URL is a fake provider, with a one-call login. */
export async function startTestServerWithLogin(
  env: Record<string, string> = {},
  options: Partial<ServerOptions> = {},
): Promise<TestServerWithLogin> {
  const provider = await startFakeSteamOpenId();
  let server: TestServer;
  try {
    server = await startTestServer({ STEAM_OPENID_URL: provider.url, ...env }, options);
  } catch (error) {
    await provider.close();
    throw error;
  }
  return {
    ...server,
    provider,
    login: (platformId) => loginAs(server, provider, platformId),
    async close() {
      await server.close();
      await provider.close();
    },
  };
}
