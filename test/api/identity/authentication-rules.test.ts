import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { call, grantPremium, issueKey } from './identity-fixtures';

/**
 * The specification's Authentication rules, one by one. Where a rule is pinned elsewhere the test
 * named here is the one that fails when the rule breaks:
 *   2 (60 a minute per key) ........ rate-limit.test.ts
 *   3 (raw key once) ............... keys.test.ts "show the raw key once"
 *   4 (SHA-256 only) ............... keys.test.ts "are stored as their SHA-256 only"
 *   5 (lapsed premium) ............. keys.test.ts "a premium key whose account's premium lapses"
 *   6 (every use audited) .......... audit.test.ts, key-audit-log.test.ts
 *   7 (revocation) ................. keys.test.ts "are revoked by their owner", "revoke any key"
 *   8, 9 (401 / 403) ............... auth-matrix.test.ts, for every credentialed route
 */

const ADMIN = '76561198000000801';
const MEMBER = '76561198000000802';
const OTHER = '76561198000000803';

let server: TestServerWithLogin;
let admin: { cookie: string };
let member: { cookie: string; id: number };
let other: { cookie: string; id: number };

beforeAll(async () => {
  server = await startTestServerWithLogin({ ADMIN_PLATFORM_IDS: ADMIN });
  admin = await server.login(ADMIN);
  const m = await server.login(MEMBER);
  const o = await server.login(OTHER);
  member = { cookie: m.cookie, id: m.user.id };
  other = { cookie: o.cookie, id: o.user.id };
  await grantPremium(server, member.id, Date.now());
  await grantPremium(server, other.id, Date.now());
});
afterAll(async () => server?.close());

describe('rule 1: the bearer key goes in the Authorization header and never in a URL', () => {
  it.each(['api_key', 'key', 'token', 'access_token'])('refuses a key in ?%s= with 401, even beside a valid header', async (name) => {
    const key = await issueKey(server, member.cookie, 'premium');
    const inUrl = await call(server, `/api/premium/api-keys/current?${name}=${key.raw}`);
    expect(inUrl.status).toBe(401);
    expect((await inUrl.json()).error).toMatch(/Authorization header/);
    const both = await call(server, `/api/premium/api-keys/current?${name}=${key.raw}`, { bearer: key.raw });
    expect(both.status).toBe(401);
  });

  it('refuses a percent-encoded key in the URL too', async () => {
    const key = await issueKey(server, member.cookie, 'premium');
    const encoded = key.raw.replace(/_/g, '%5F');
    expect((await call(server, `/api/premium/api-keys/current?q=${encoded}`, { bearer: key.raw })).status).toBe(401);
  });

  it('accepts the same key in the Authorization header', async () => {
    const key = await issueKey(server, member.cookie, 'premium');
    expect((await call(server, '/api/premium/api-keys/current', { bearer: key.raw })).status).toBe(200);
  });

  it.each(['bearer', 'BEARER'])('accepts the scheme spelt %s: scheme names are case-insensitive', async (scheme) => {
    const key = await issueKey(server, member.cookie, 'premium');
    const res = await call(server, '/api/premium/api-keys/current', { headers: { authorization: `${scheme} ${key.raw}` } });
    expect(res.status).toBe(200);
  });
});

describe('rule 6: the owner sees the audit rows; admins see all keys', () => {
  it('lists only the caller\'s own keys to a member', async () => {
    const mine = await issueKey(server, member.cookie, 'premium');
    const theirs = await issueKey(server, other.cookie, 'premium');
    const ids = (await (await call(server, '/api/premium/api-keys', { cookie: member.cookie })).json()).map((k: { id: number }) => k.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
  });

  it('lists every user\'s keys, with their audit rows, to an admin', async () => {
    const theirs = await issueKey(server, other.cookie, 'premium');
    await call(server, '/api/premium/api-keys/current', { bearer: theirs.raw });
    const all = await (await call(server, '/api/admin/api-keys', { cookie: admin.cookie })).json();
    const listed = all.find((k: { id: number }) => k.id === theirs.id);
    expect(listed).toMatchObject({ user_id: other.id, audit: [{ endpoint: '/api/premium/api-keys/current', status: 200 }] });
  });
});

describe('rules 8 and 9: which credential decides', () => {
  it('lets a presented key decide alone: a revoked key beside a valid session is 401', async () => {
    const key = await issueKey(server, admin.cookie, 'admin');
    await call(server, `/api/admin/api-keys/${key.id}`, { method: 'DELETE', cookie: admin.cookie });
    expect((await call(server, '/api/admin/api-keys', { cookie: admin.cookie })).status).toBe(200);
    expect((await call(server, '/api/admin/api-keys', { cookie: admin.cookie, bearer: key.raw })).status).toBe(401);
  });

  it('refuses a valid key of the wrong scope with 403: a premium key on an admin-key route', async () => {
    const key = await issueKey(server, member.cookie, 'premium');
    expect((await call(server, '/api/admin/api-keys', { bearer: key.raw })).status).toBe(403);
  });

  it('ignores other authorization schemes on a session route: Basic beside a session still works', async () => {
    const response = await call(server, '/api/users/me', { cookie: member.cookie, headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(response.status).toBe(200);
  });
});

describe('rule 10: login is required to redeem a gift code', () => {
  it('answers 401 without a session', async () => {
    const response = await call(server, '/api/premium/gift-codes/redeem', { method: 'POST', body: { code: 'ABCD-EFGH-JKLM-NPQR' } });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });
});
