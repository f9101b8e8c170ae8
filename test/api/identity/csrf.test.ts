import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { call, issueKey } from './identity-fixtures';

/**
 * CSRF: the session cookie rides along on requests another site's page makes, so a state change
 * it authenticates must come from one of our pages (Origin, else Referer) or from a client that
 * sends neither (not a browser); bodies are JSON only (415 otherwise). Keys are not cookies.
 */
let server: TestServerWithLogin;
let cookie: string;
const ADMIN = '76561198000000951';

beforeAll(async () => {
  server = await startTestServerWithLogin({ ADMIN_PLATFORM_IDS: ADMIN });
  cookie = (await server.login(ADMIN)).cookie;
});
afterAll(() => server?.close());

const createParty = (headers: Record<string, string>, body: string | null = JSON.stringify({})) =>
  fetch(`${server.url}/api/parties/create`, { method: 'POST', headers: { cookie, ...headers }, body: body ?? undefined });
async function leaveParty(): Promise<void> {
  expect((await call(server, '/api/parties/leave', { method: 'POST', cookie })).status).toBe(200);
}

describe('a state change authenticated by the session cookie', () => {
  it.each([
    ['an Origin of another site', { origin: 'https://evil.example' }],
    ['an opaque Origin (sandboxed frame)', { origin: 'null' }],
    ['a Referer on another site and no Origin', { referer: 'https://evil.example/form.html' }],
    ['an Origin on a sibling subdomain', { origin: 'http://evil.localhost:8080' }],
  ])('is refused with 403 {error} from %s, and changes nothing', async (_what, headers) => {
    const res = await createParty({ 'content-type': 'application/json', ...headers });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatch(/cross-site request refused/);
    expect((await call(server, '/api/parties/me', { cookie }).then((r) => r.json())).party).toBeNull();
  });

  it.each([
    ["PUBLIC_URL's origin", { origin: 'http://localhost:8080' }],
    ['the origin the request was addressed to', {}],
    ['a Referer on this site and no Origin', { referer: 'http://localhost:8080/lobby/AB12' }],
    ['neither header (a non-browser client)', {}],
  ])('is allowed from %s', async (what, headers) => {
    const own = what.startsWith('the origin the request') ? { origin: server.url } : headers;
    const res = await createParty({ 'content-type': 'application/json', ...own });
    expect(res.status).toBe(201);
    await leaveParty();
  });

  it('a read is not a state change: GET with a foreign Origin still answers', async () => {
    const res = await call(server, '/auth/me', { cookie, headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
  });
});

describe('a body that is not JSON', () => {
  it.each([
    ['a urlencoded form', 'application/x-www-form-urlencoded', 'name=x'],
    ['an empty urlencoded form (a join button on another site)', 'application/x-www-form-urlencoded', ''],
    ['a text/plain form', 'text/plain', '{"name":"x"}'],
    ['a multipart form', 'multipart/form-data; boundary=x', '--x--'],
  ])('is refused with 415 {error}: %s', async (_what, type, body) => {
    const res = await createParty({ 'content-type': type }, body);
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: 'request body must be application/json' });
  });

  it('a body without a Content-Type is refused with 415 too', async () => {
    const res = await fetch(`${server.url}/api/parties/create`, { method: 'POST', headers: { cookie }, body: new Blob(['{}']) });
    expect(res.status).toBe(415);
  });

  it('a bodyless POST without a Content-Type is still a command (join, ready...)', async () => {
    expect((await createParty({}, null)).status).toBe(201);
    await leaveParty();
  });

  it('application/json with a charset, or a +json type, is JSON', async () => {
    expect((await createParty({ 'content-type': 'application/json; charset=utf-8' })).status).toBe(201);
    await leaveParty();
    expect((await createParty({ 'content-type': 'application/merge-patch+json' })).status).toBe(201);
    await leaveParty();
  });
});

describe('a bearer key', () => {
  it('is not subject to the Origin rule: a browser never sends one on its own', async () => {
    const key = await issueKey(server, cookie, 'admin');
    const res = await call(server, `/api/admin/api-keys/${key.id}`, { method: 'DELETE', bearer: key.raw, headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(204);
  });
});
