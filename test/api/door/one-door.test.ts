import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs, type CapturedLogs } from '../../support/log-capture';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';

/*
 * The one exchange (src/door/exchange.ts) seen from outside: every door answers the same rule the
 * same way, and an early refusal reaches a client that is still sending its body.
 */
const ADMIN = '76561198000002001';
const KEY_IN_URL = 'API keys go in the Authorization header, never in the URL';
const FAKE_KEY = `svc_pk_${'a'.repeat(43)}`;
let server: TestServerWithLogin;
let logs: CapturedLogs;
let cookie: string;

beforeAll(async () => {
  logs = captureLogs('info');
  server = await startTestServerWithLogin({ ADMIN_PLATFORM_IDS: ADMIN }, { logger: logs.logger });
  cookie = (await server.login(ADMIN)).cookie;
}, 60_000);
afterAll(() => server?.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('a key in the URL', () => {
  it.each([
    ['an express route', 'GET', '/healthz'],
    ['a native public read', 'GET', '/api/public/summary'],
    ['an express public read', 'GET', '/api/users/stats/global'],
    ['a native lobby command', 'POST', '/api/lobbies/ABCDEF/vote-map'],
    ['the streamed upload', 'POST', '/api/maps/upload'],
  ])('is refused 401 on %s, saying where keys go', async (_door, method, path) => {
    const res = await fetch(`${server.url}${path}?api_key=${FAKE_KEY}`, { method, headers: method === 'POST' ? { 'content-type': 'application/json' } : {}, body: method === 'POST' ? '{}' : undefined });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: KEY_IN_URL });
  });

  it('is refused 401 at the socket handshake', async () => {
    const socket = io(server.url, { transports: ['websocket'], query: { api_key: FAKE_KEY }, reconnection: false });
    try {
      const refusal = await new Promise<{ data?: unknown }>((resolve) => socket.once('connect_error', resolve));
      expect(refusal.data).toEqual({ status: 401, error: KEY_IN_URL });
    } finally {
      socket.close();
    }
  });
});

describe('a cross-site state change with the session cookie', () => {
  it.each([
    ['Sec-Fetch-Site: cross-site without an Origin', { 'sec-fetch-site': 'cross-site' }],
    ['a foreign Origin', { origin: 'http://evil.example' }],
  ])('is refused 403 on a session route for %s', async (_what, headers) => {
    const res = await post('/api/lobbies', { format: 'ultiduo' }, { cookie, ...headers });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatch(/^cross-site request refused/);
  });

  it.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['a foreign Origin', { origin: 'http://evil.example' }],
  ])('is refused 403 on gift-code redeem for %s, before the code is looked at', async (_what, headers) => {
    const res = await post('/api/premium/gift-codes/redeem', { code: 'ABCD-EFGH-JKLM-2345' }, { cookie, ...headers });
    expect(res.status).toBe(403);
  });

  it('is served when the client sends neither header (curl, bots)', async () => {
    const res = await post('/api/premium/gift-codes/redeem', { code: 'ABCD-EFGH-JKLM-2345' }, { cookie });
    expect(res.status).toBe(404);
  });

  it('is served from the same origin (Sec-Fetch-Site: same-origin)', async () => {
    const res = await post('/api/premium/gift-codes/redeem', { code: 'ABCD-EFGH-JKLM-2345' }, { cookie, 'sec-fetch-site': 'same-origin' });
    expect(res.status).toBe(404);
  });
});

describe('the request id', () => {
  it('keeps a sane client X-Request-Id and answers it', async () => {
    const res = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'client-id-1234' } });
    expect(res.headers.get('x-request-id')).toBe('client-id-1234');
  });

  it('replaces an unsafe one with a generated id', async () => {
    const res = await fetch(`${server.url}/api/public/summary`, { headers: { 'x-request-id': 'bad id <script>' } });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is in the access log line, with the route template and the status', async () => {
    const res = await fetch(`${server.url}/api/lobbies/ZZZZZZ`, { headers: { 'x-request-id': 'access-log-probe' } });
    expect(res.status).toBe(404);
    await expect
      .poll(() => logs.lines().map((line) => JSON.parse(line)).find((entry) => entry.requestId === 'access-log-probe' && entry.msg === 'request'))
      .toMatchObject({ door: 'http', method: 'GET', route: '/api/lobbies/:code', status: 404 });
  });

  it('names an unknown path "unmatched" in the access log', async () => {
    await fetch(`${server.url}/api/no/such/${'x'.repeat(20)}`, { headers: { 'x-request-id': 'unmatched-probe' } });
    await expect
      .poll(() => logs.lines().map((line) => JSON.parse(line)).find((entry) => entry.requestId === 'unmatched-probe'))
      .toMatchObject({ route: 'unmatched', status: 404 });
  });
});

describe('an early refusal reaches the client that is still sending', () => {
  const bigForm = (bytes: number) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), 'cp_probe.bsp');
    return form;
  };

  it('fetch: an anonymous 2 KB upload is answered 401', async () => {
    const res = await fetch(`${server.url}/api/maps/upload`, { method: 'POST', body: bigForm(2 * 1024) });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: expect.any(String) });
  });

  it('fetch: a 96 MB upload is answered 413', async () => {
    const res = await fetch(`${server.url}/api/maps/upload`, { method: 'POST', headers: { cookie }, body: bigForm(96 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/limited to/);
  }, 60_000);

  it('node:http: a declared 2 MB JSON body is answered 413', async () => {
    const body = Buffer.alloc(2 * 1024 * 1024, 0x20);
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/api/lobbies`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length, cookie } }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text).error).toMatch(/over 1048576 bytes/);
  });

  it('curl: an anonymous 2 KB upload is answered 401', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'door-curl-'));
    try {
      const file = join(dir, 'cp_probe.bsp');
      await writeFile(file, Buffer.alloc(2 * 1024));
      const { stdout } = await promisify(execFile)('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '-F', `file=@${file}`, `${server.url}/api/maps/upload`]);
      expect(stdout).toBe('401');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the streamed upload', () => {
  it('answers an unterminated multipart body 400 and keeps serving', async () => {
    const boundary = 'door-boundary';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cp_unterminated.bsp"\r\nContent-Type: application/octet-stream\r\n\r\nVBSP`;
    const res = await fetch(`${server.url}/api/maps/upload`, { method: 'POST', headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` }, body });
    // Seen intermittently in full runs: a 503 within ~20 ms; the answer and the last log lines say which store refused.
    expect(res.status, `${await res.clone().text()}\n${logs.lines().slice(-8).join('\n')}`).toBe(400);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('refuses two different Content-Length headers like every route', async () => {
    const { rawExchange, parseResponses } = await import('../../support/raw-http');
    const head = 'POST /api/maps/upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 2\r\nContent-Length: 40\r\n\r\n{}';
    const [answer] = parseResponses((await rawExchange(server.server.port, head)).text);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: 'different Content-Length headers sent' });
  });
});
