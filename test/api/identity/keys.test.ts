import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { call, grantPremium, issueKey, movableClock, setAdmin } from './identity-fixtures';

const OPERATOR = '76561198000000201';
const MEMBER = '76561198000000202';
const FREE_USER = '76561198000000203';
const FORMER_ADMIN = '76561198000000204';

const clock = movableClock();
let server: TestServerWithLogin;
let operator: { cookie: string; id: number };
let member: { cookie: string; id: number };
let freeUser: { cookie: string; id: number };

beforeAll(async () => {
  server = await startTestServerWithLogin({ ADMIN_PLATFORM_IDS: `${OPERATOR},${FORMER_ADMIN}` }, { clock: clock.now });
  const login = async (platformId: string) => {
    const { cookie, user } = await server.login(platformId);
    return { cookie, id: user.id };
  };
  operator = await login(OPERATOR);
  member = await login(MEMBER);
  freeUser = await login(FREE_USER);
  await grantPremium(server, member.id, clock.now());
});
afterAll(async () => server?.close());

const current = (raw: string) => call(server, '/api/premium/api-keys/current', { bearer: raw });

describe('premium keys', () => {
  it('are svc_pk_ plus 43 base64url characters, and the issue response carries raw_key', async () => {
    const response = await call(server, '/api/premium/api-keys', { method: 'POST', cookie: member.cookie, body: { label: 'bot' } });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.raw_key).toMatch(/^svc_pk_[A-Za-z0-9_-]{43}$/);
    expect(body).toMatchObject({ kind: 'premium', label: 'bot', user_id: member.id, key_prefix: body.raw_key.slice(0, 12) });
  });

  it('are stored as their SHA-256 only: no column of the row holds the raw key', async () => {
    const key = await issueKey(server, member.cookie, 'premium');
    const rows = await server.server.db.em().execute('select * from api_keys where id = ?', [key.id]);
    expect(rows[0].key_hash).toBe(createHash('sha256').update(key.raw).digest('hex'));
    expect(JSON.stringify(rows[0])).not.toContain(key.raw);
  });

  it('show the raw key once: the list has neither the raw key nor its hash', async () => {
    const key = await issueKey(server, member.cookie, 'premium');
    const text = await (await call(server, '/api/premium/api-keys', { cookie: member.cookie })).text();
    expect(text).toContain(`"id":${key.id}`);
    expect(text).not.toContain(key.raw);
    expect(text).not.toContain(createHash('sha256').update(key.raw).digest('hex'));
    expect(text).not.toContain('raw_key');
  });

  it('need active premium to be issued: 403 otherwise', async () => {
    const response = await call(server, '/api/premium/api-keys', { method: 'POST', cookie: freeUser.cookie, body: {} });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });

  it('reject a label that is not a string with 400 naming the field', async () => {
    const response = await call(server, '/api/premium/api-keys', { method: 'POST', cookie: member.cookie, body: { label: 5 } });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(/^label/);
  });

  it('authenticate a bot as its account', async () => {
    const key = await issueKey(server, member.cookie, 'premium');
    const response = await current(key.raw);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: key.id, kind: 'premium', user: { id: member.id } });
  });

  it('list the caller\'s keys with the last audit rows of each', async () => {
    const key = await issueKey(server, member.cookie, 'premium');
    await current(key.raw);
    const list = await (await call(server, '/api/premium/api-keys', { cookie: member.cookie })).json();
    const listed = list.find((k: { id: number }) => k.id === key.id);
    expect(listed.audit).toEqual([
      { endpoint: '/api/premium/api-keys/current', method: 'GET', client_hash: expect.stringMatching(/^[0-9a-f]{64}$/), status: 200, at: expect.any(String) },
    ]);
    expect(listed.last_used_at).not.toBeNull();
  });

  it('are revoked by their owner (204) and answer 401 afterwards', async () => {
    const key = await issueKey(server, member.cookie, 'premium');
    expect((await call(server, `/api/premium/api-keys/${key.id}`, { method: 'DELETE', cookie: member.cookie })).status).toBe(204);
    expect((await current(key.raw)).status).toBe(401);
  });

  it('cannot be revoked by another user: 404', async () => {
    const key = await issueKey(server, member.cookie, 'premium');
    expect((await call(server, `/api/premium/api-keys/${key.id}`, { method: 'DELETE', cookie: operator.cookie })).status).toBe(404);
    expect((await current(key.raw)).status).toBe(200);
  });
});

describe('admin keys', () => {
  it('are minted by a listed admin after logging in, and work as admin credentials', async () => {
    const response = await call(server, '/api/admin/api-keys', { method: 'POST', cookie: operator.cookie, body: { label: 'ops' } });
    expect(response.status).toBe(201);
    const { raw_key: raw } = await response.json();
    expect(raw).toMatch(/^svc_ak_[A-Za-z0-9_-]{43}$/);
    const all = await call(server, '/api/admin/api-keys', { bearer: raw });
    expect(all.status).toBe(200);
    expect((await all.json()).length).toBeGreaterThan(0);
  });

  it('revoke any key through DELETE /api/admin/api-keys/:id', async () => {
    const admin = await issueKey(server, operator.cookie, 'admin');
    const victim = await issueKey(server, member.cookie, 'premium');
    expect((await call(server, `/api/admin/api-keys/${victim.id}`, { method: 'DELETE', bearer: admin.raw })).status).toBe(204);
    expect((await current(victim.raw)).status).toBe(401);
  });

  it('cannot be minted by a non-admin: 403', async () => {
    expect((await call(server, '/api/admin/api-keys', { method: 'POST', cookie: member.cookie, body: {} })).status).toBe(403);
  });

  it('cannot be minted for an account that is not admin: 400', async () => {
    const response = await call(server, '/api/admin/api-keys', { method: 'POST', cookie: operator.cookie, body: { user_id: member.id } });
    expect(response.status).toBe(400);
  });

  it('stop working (403) once their account is no longer admin', async () => {
    const { cookie, user } = await server.login(FORMER_ADMIN);
    const key = await issueKey(server, cookie, 'admin');
    expect((await call(server, '/api/admin/api-keys', { bearer: key.raw })).status).toBe(200);
    await setAdmin(server, user.id, false);
    expect((await call(server, '/api/admin/api-keys', { bearer: key.raw })).status).toBe(403);
  });
});

describe('a premium key whose account\'s premium lapses', () => {
  it('stops working with 403, without anyone revoking it', async () => {
    const { cookie, user } = await server.login('76561198000000250');
    await grantPremium(server, user.id, clock.now(), 10);
    const key = await issueKey(server, cookie, 'premium');
    expect((await current(key.raw)).status).toBe(200);
    clock.advanceDays(11);
    const response = await current(key.raw);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: 'premium membership has lapsed' });
  });
});
