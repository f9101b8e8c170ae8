import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteContract } from '../../../schema/route-contract';
import { allRoutes } from '../../../schema/routes';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { call, grantPremium, issueKey, movableClock, setAdmin, type Call } from './identity-fixtures';

/**
 * Every credentialed route, against every way a credential can be missing or wrong. The expected
 * statuses are written out from the specification's Authentication rules (8, 9 and the key rules),
 * not derived from the code under test.
 */

const ADMIN = '76561198000000301';
const FORMER_ADMIN = '76561198000000302';
const MEMBER = '76561198000000303';
const LAPSED = '76561198000000304';
const FREE_USER = '76561198000000305';

const clock = movableClock();
let server: TestServerWithLogin;
const credential: Record<string, Call> = {};

beforeAll(async () => {
  server = await startTestServerWithLogin(
    { ADMIN_PLATFORM_IDS: `${ADMIN},${FORMER_ADMIN}`, PLUGIN_SECRET: 'the-plugin-secret-of-this-test' },
    { clock: clock.now },
  );
  const member = await server.login(MEMBER);
  const lapsed = await server.login(LAPSED);
  const formerAdmin = await server.login(FORMER_ADMIN);
  const freeUser = await server.login(FREE_USER);
  await grantPremium(server, member.user.id, clock.now(), 365);
  await grantPremium(server, lapsed.user.id, clock.now(), 10);

  const revoked = await issueKey(server, member.cookie, 'premium');
  await call(server, `/api/premium/api-keys/${revoked.id}`, { method: 'DELETE', cookie: member.cookie });
  const lapsedKey = await issueKey(server, lapsed.cookie, 'premium');
  const demotedKey = await issueKey(server, formerAdmin.cookie, 'admin');
  await setAdmin(server, formerAdmin.user.id, false);
  const premiumKey = await issueKey(server, member.cookie, 'premium');
  clock.advanceDays(11);

  credential.none = {};
  credential.unknownKey = { bearer: `svc_pk_${randomBytes(32).toString('base64url')}` };
  credential.malformedKey = { headers: { authorization: 'Bearer not-a-league-key' } };
  credential.revokedKey = { bearer: revoked.raw };
  credential.lapsedPremiumKey = { bearer: lapsedKey.raw };
  credential.demotedAdminKey = { bearer: demotedKey.raw };
  credential.activePremiumKey = { bearer: premiumKey.raw };
  credential.freeSession = { cookie: freeUser.cookie };
  credential.memberSession = { cookie: member.cookie };
  credential.wrongPluginSecret = { headers: { 'x-svc-plugin-secret': 'not-the-plugin-secret-at-all' } };
  credential.keyInQuery = { bearer: premiumKey.raw };
});
afterAll(async () => server?.close());

const takes = (route: RouteContract, c: string) => route.auth.includes(c as never);
const takesKeys = (route: RouteContract) => takes(route, 'premium') || takes(route, 'admin');

/** [credential, expected status] pairs the rules fix for this route. */
function expectations(route: RouteContract): Array<[string, number]> {
  const cases: Array<[string, number]> = [
    ['none', 401],
    ['unknownKey', 401],
    ['malformedKey', 401],
    ['revokedKey', 401],
    ['wrongPluginSecret', 401],
    // Rule 9 where the route takes keys; elsewhere a key is no credential at all (rule 8).
    ['lapsedPremiumKey', takesKeys(route) ? 403 : 401],
    ['demotedAdminKey', takesKeys(route) ? 403 : 401],
    // Rule 1 with rule 8 (issue 20): a key in the URL is no valid credential, 401 on every route.
    ['keyInQuery', 401],
  ];
  if (!takesKeys(route)) cases.push(['activePremiumKey', 401]);
  else if (!takes(route, 'premium')) cases.push(['activePremiumKey', 403]);
  if (!takes(route, 'session')) cases.push(['memberSession', 401]);
  else if (route.role === 'premium') cases.push(['freeSession', 403]);
  else if (route.role === 'admin') cases.push(['memberSession', 403]);
  return cases;
}

const credentialed = allRoutes.filter((route) => route.auth.length > 0);
const concretePath = (route: RouteContract) => route.path.replace(/:(\w+)/g, '1');

describe.each(credentialed.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))('%s', (_name, route) => {
  it.each(expectations(route))('with %s answers %i {error}', async (name, status) => {
    // Each key gets a fresh rate-limit window per case: this table is about credentials, not rates.
    clock.advanceMs(61_000);
    const path = name === 'keyInQuery' ? `${concretePath(route)}?api_key=${credential.keyInQuery.bearer}` : concretePath(route);
    const options = name === 'keyInQuery' ? {} : credential[name];
    const response = await call(server, path, { ...options, method: route.method.toUpperCase() });
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });
});

it('covers the credentialed routes of every area registered so far', () => {
  expect(credentialed.map((r) => r.path)).toEqual(expect.arrayContaining(['/api/users/me', '/api/premium/api-keys', '/api/admin/api-keys/:id']));
});
