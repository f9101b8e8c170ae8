import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/observability/logger';
import { startFakeSteamApi, type FakeSteamApi } from '../../fakes/fake-steam-api';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { call, grantPremium, issueKey } from './identity-fixtures';

const ADMIN = '76561198000000701';
const STEAM_KEY = 'steam-web-api-key-never-logged';
const PLUGIN_SECRET = 'plugin-secret-never-logged-1234';
const SESSION_SECRET = 'session-secret-never-logged-0123456789abcdef';

const lines: string[] = [];
let server: TestServerWithLogin;
let steamApi: FakeSteamApi;
const secrets: Record<string, string> = { STEAM_KEY, PLUGIN_SECRET, SESSION_SECRET };

beforeAll(async () => {
  steamApi = await startFakeSteamApi({ apiKey: STEAM_KEY, profiles: { [ADMIN]: { personaname: 'Operator' } } });
  const logger = createLogger('trace', { write: (line: string) => void lines.push(line) });
  server = await startTestServerWithLogin(
    { ADMIN_PLATFORM_IDS: ADMIN, STEAM_API_URL: steamApi.url, STEAM_API_KEY: STEAM_KEY, PLUGIN_SECRET, SESSION_SECRET },
    { logger },
  );
  const { cookie, user } = await server.login(ADMIN);
  secrets.cookie = cookie.split('=')[1];
  await grantPremium(server, user.id, Date.now());
  const premium = await issueKey(server, cookie, 'premium');
  const admin = await issueKey(server, cookie, 'admin');
  secrets.premiumKey = premium.raw;
  secrets.adminKey = admin.raw;
  await call(server, '/api/premium/api-keys/current', { bearer: premium.raw });
  await call(server, '/api/admin/api-keys', { bearer: admin.raw });
  await call(server, `/api/admin/api-keys?api_key=${premium.raw}`);
  await call(server, '/api/users/me', { cookie, headers: { 'x-svc-plugin-secret': PLUGIN_SECRET } });
  await call(server, '/auth/chat', { cookie });
  await call(server, '/auth/logout', { cookie });
  // A replayed login and a key the server never issued also take their logged paths.
  await call(server, '/auth/me', { bearer: `svc_pk_${'A'.repeat(43)}` });
  await server.server.close();
});
afterAll(async () => {
  await server?.close();
  await steamApi?.close();
});

describe('the logs of logging in and using keys', () => {
  it('were captured (the login was logged)', () => {
    expect(lines.join('')).toContain('logged in');
  });

  it.each(['cookie', 'premiumKey', 'adminKey', 'STEAM_KEY', 'PLUGIN_SECRET', 'SESSION_SECRET'])('never contain the %s', (name) => {
    const value = secrets[name];
    expect(value.length).toBeGreaterThan(20);
    expect(lines.join('')).not.toContain(value);
  });
});
