import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookieOf } from '../../support/login';
import { startTestServer, type TestServer } from '../../support/test-server';

async function devLogin(t: TestServer, query: string): Promise<Response> {
  return fetch(`${t.url}/auth/dev?${query}`, { redirect: 'manual' });
}

describe('dev login with DEV_LOGIN=1', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ DEV_LOGIN: '1' });
  });
  afterAll(() => t?.close());

  it('logs in as a local user of that name and redirects like the real callback', async () => {
    const answer = await devLogin(t, 'name=Newcomer');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/?logged_in=1');
    const cookie = sessionCookieOf(answer)!;
    const me = await fetch(`${t.url}/auth/me`, { headers: { cookie } }).then((r) => r.json());
    expect(me).toMatchObject({ username: 'Newcomer', is_admin: false });
    expect(me.platform_id).toMatch(/^9\d{16}$/);
  });

  it('gives the same name the same user every time', async () => {
    const ids = [];
    for (let i = 0; i < 2; i++) {
      const cookie = sessionCookieOf(await devLogin(t, 'name=Repeat'))!;
      ids.push((await fetch(`${t.url}/auth/me`, { headers: { cookie } }).then((r) => r.json())).id);
    }
    expect(ids[0]).toBe(ids[1]);
  });

  it('makes an admin when asked with admin=1', async () => {
    const cookie = sessionCookieOf(await devLogin(t, 'name=Operator&admin=1'))!;
    expect((await fetch(`${t.url}/auth/me`, { headers: { cookie } }).then((r) => r.json())).is_admin).toBe(true);
  });

  it('refuses a name outside the rule with 400 naming the field, without echoing it', async () => {
    const answer = await devLogin(t, `name=${encodeURIComponent('<script>')}`);
    expect(answer.status).toBe(400);
    const body = await answer.json();
    expect(body.error).toContain('name');
    expect(body.error).not.toContain('<script>');
  });

  it('says it is on', async () => {
    expect(await fetch(`${t.url}/auth/dev/status`).then((r) => r.json())).toEqual({ enabled: true });
  });
});

describe('dev login without DEV_LOGIN', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  it('answers 404 and sets no cookie', async () => {
    const answer = await devLogin(t, 'name=Intruder&admin=1');
    expect(answer.status).toBe(404);
    expect(sessionCookieOf(answer)).toBeNull();
    expect(await fetch(`${t.url}/auth/dev/status`).then((r) => r.json())).toEqual({ enabled: false });
  });
});
