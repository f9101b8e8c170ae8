import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../../schema/routes';
import type { RouteContract } from '../../../schema/route-contract';
import { grantPremium, issueKey } from '../identity/identity-fixtures';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';

/*
 * A JSON array, string, number, boolean or null where an object body is expected is 400 {error}
 * on every route that takes a body (declared or not), decided before the handler runs: nothing
 * is created or changed. The caller is an admin with premium and presents each route's own
 * credential (session, premium key, admin key or plugin secret), so no route refuses the
 * credential before the body is looked at.
 */
const ADMIN = '76561198000009001';
const PLUGIN_SECRET = 'object-bodies-plugin-secret-0123';
const NOT_OBJECTS: unknown[] = [[], [1, 2, 3], 'text', 42, null, true];

let server: TestServerWithLogin;
let cookie: string;
let premiumKey: string;
let adminKey: string;

beforeAll(async () => {
  server = await startTestServerWithLogin({ ADMIN_PLATFORM_IDS: ADMIN, PLUGIN_SECRET });
  const login = await server.login(ADMIN);
  cookie = login.cookie;
  await grantPremium(server, login.user.id, Date.now());
  premiumKey = (await issueKey(server, cookie, 'premium')).raw;
  adminKey = (await issueKey(server, cookie, 'admin')).raw;
}, 60_000);

/** The headers of the first credential the route accepts. */
function credentialOf(route: Pick<RouteContract, 'auth'>): Record<string, string> {
  const [first] = route.auth;
  if (first === 'premium') return { authorization: `Bearer ${premiumKey}` };
  if (first === 'admin') return { authorization: `Bearer ${adminKey}` };
  if (first === 'plugin') return { 'x-svc-plugin-secret': PLUGIN_SECRET };
  return { cookie };
}

afterAll(async () => {
  await server?.close();
});

const key = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`;
// A multipart upload's body is a stream of parts, not JSON: there is no object to expect.
const withBodies = allRoutes.filter((route) => route.method !== 'get' && route.bodyContentType === undefined);

const pathOf = (path: string) => path.replace(':code', 'AB12CD').replace(/:[A-Za-z]+/g, '1');

async function send(method: string, path: string, raw: string, credential: Record<string, string> = { cookie }): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url}${path}`, { method: method.toUpperCase(), headers: { ...credential, 'content-type': 'application/json' }, body: raw });
  return { status: response.status, body: await response.json() };
}

describe('a body that is not a JSON object', () => {
  it('is tested on every route that takes a body', () => {
    expect(withBodies.length).toBeGreaterThanOrEqual(30);
  });

  it.each(withBodies.flatMap((route) => NOT_OBJECTS.map((body) => ({ route: key(route), method: route.method, path: route.path, auth: route.auth, body: JSON.stringify(body) }))))(
    '$route with $body answers 400 {error}',
    async ({ method, path, auth, body }) => {
      expect(await send(method, pathOf(path), body, credentialOf({ auth }))).toEqual({ status: 400, body: { error: 'body must be a JSON object' } });
    },
  );

  it('creates no party and no lobby', async () => {
    await send('post', '/api/parties/create', '[]');
    await send('post', '/api/lobbies', '[1,2,3]');
    const me = await fetch(`${server.url}/api/parties/me`, { headers: { cookie } }).then((r) => r.json());
    expect(me.party).toBeNull();
    const lobbies = await fetch(`${server.url}/api/public/lobbies`).then((r) => r.json());
    expect(lobbies).toEqual([]);
  });

  it('is still 400 with the field named when the object is wrong inside', async () => {
    const created = await send('post', '/api/lobbies', '{}');
    expect(created.status).toBe(200);
    const code = (created.body as { code: string }).code;
    expect(await send('post', `/api/lobbies/${code}/vote-map`, '{"map": []}')).toEqual({ status: 400, body: { error: expect.stringMatching(/^map: /) } });
  });
});
