import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { buildBsp } from '../../support/bsp-file';
import { grantPremium, issueKey } from '../identity/identity-fixtures';
import { mapRows, uploadMap } from './maps-client';

/** The native upload route applies the REST routes' CSRF rule: it shares their credential check. */
const MEMBER = '76561198000001601';
const PUBLIC_URL = 'https://league.example';

let server: TestServerWithLogin;
let cookie: string;

beforeAll(async () => {
  server = await startTestServerWithLogin({ PUBLIC_URL });
  const member = await server.login(MEMBER);
  cookie = member.cookie;
  await grantPremium(server, member.user.id, Date.now());
});
afterAll(async () => server?.close());

it('refuses an upload with the session cookie from another site with 403, storing nothing', async () => {
  const response = await uploadMap(server, { cookie }, 'cp_cross_site.bsp', buildBsp({ revision: 801 }), undefined, { origin: 'https://evil.example' });
  expect(response.status).toBe(403);
  expect(await response.json()).toEqual({ error: expect.stringContaining('cross-site') });
  expect(await mapRows(server.server.db, 'cp_cross_site')).toEqual([]);
});

it("accepts an upload with the session cookie from the site's own pages", async () => {
  const response = await uploadMap(server, { cookie }, 'cp_same_site.bsp', buildBsp({ revision: 802 }), undefined, { origin: PUBLIC_URL });
  expect(response.status).toBe(201);
});

it('accepts an upload with a premium key whatever the Origin (a browser never sends a key by itself)', async () => {
  const key = await issueKey(server, cookie, 'premium', { label: 'csrf test' });
  const response = await uploadMap(server, { bearer: key.raw }, 'cp_key_any_site.bsp', buildBsp({ revision: 803 }), undefined, { origin: 'https://evil.example' });
  expect(response.status).toBe(201);
});
