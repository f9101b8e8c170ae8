import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs, type CapturedLogs } from '../../support/log-capture';
import { KeepAliveConnection, parseResponses, rawExchange } from '../../support/raw-http';
import { startTestServer, type TestServer } from '../../support/test-server';

let t: TestServer;
let port: number;
let logs: CapturedLogs;

beforeAll(async () => {
  logs = captureLogs();
  t = await startTestServer({}, { logger: logs.logger });
  port = t.server.port;
});
afterAll(() => t?.close());

const request = (head: string, body = '') => `${head.split('\n').join('\r\n')}\r\n\r\n${body}`;

describe('HEAD', () => {
  it.each([
    ['a native public read', '/api/public/summary'],
    ['a native page', '/'],
    ['an express route', '/healthz'],
    ['an express public read', '/api/public/leaderboard'],
  ])('on %s answers headers only, so the next response on the connection is framed right', async (_what, path) => {
    const connection = await KeepAliveConnection.open(port);
    try {
      const get = await connection.exchange(request(`GET ${path} HTTP/1.1\nHost: x`));
      expect(get.status).toBe(200);
      const head = await connection.exchange(request(`HEAD ${path} HTTP/1.1\nHost: x`), true);
      expect(head.status).toBe(200);
      expect(head.header('content-type')).toBe(get.header('content-type'));
      const next = await connection.exchange(request('GET /healthz HTTP/1.1\nHost: x'));
      expect(next.status).toBe(200);
      expect(JSON.parse(next.body)).toEqual({ ok: true });
      expect(connection.leftover()).toBe('');
    } finally {
      connection.close();
    }
  });

  it('on a native read tells the length a GET would get', async () => {
    const connection = await KeepAliveConnection.open(port);
    try {
      const get = await connection.exchange(request('GET /api/public/summary HTTP/1.1\nHost: x'));
      const head = await connection.exchange(request('HEAD /api/public/summary HTTP/1.1\nHost: x'), true);
      expect(head.header('content-length')).toBe(String(Buffer.byteLength(get.body)));
    } finally {
      connection.close();
    }
  });
});

describe('request smuggling', () => {
  it('two different Content-Length headers are refused with 400 and the connection closed', async () => {
    const outcome = await rawExchange(port, request('POST /api/lobbies HTTP/1.1\nHost: x\nContent-Type: application/json\nContent-Length: 2\nContent-Length: 40', '{}'));
    const [answer, ...more] = parseResponses(outcome.text);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: 'different Content-Length headers sent' });
    expect(more).toEqual([]);
    expect(outcome.ended).toBe('closed');
  });

  it('a request smuggled behind the shorter length is never served', async () => {
    const smuggled = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
    const outcome = await rawExchange(port, request(`POST /api/lobbies HTTP/1.1\nHost: x\nContent-Length: 2\nContent-Length: ${2 + smuggled.length}`, `{}${smuggled}`));
    // uWS aborts the pending refusal when it parses a second request in the same read, and
    // closes: the client sees the connection end, never an answer to the smuggled request.
    expect(outcome.text).not.toContain('{"ok":true}');
    expect(outcome.ended).not.toBe('open');
  });

  it('the same check guards the native GET routes', async () => {
    const outcome = await rawExchange(port, request('GET /api/public/summary HTTP/1.1\nHost: x\nContent-Length: 2\nContent-Length: 3', '{}'));
    expect(parseResponses(outcome.text).map((r) => r.status)).toEqual([400]);
    expect(outcome.ended).toBe('closed');
  });

  it('the same check guards the native lobby command routes', async () => {
    const outcome = await rawExchange(port, request('POST /api/lobbies/ABCDEF/join HTTP/1.1\nHost: x\nContent-Length: 2\nContent-Length: 3', '{}'));
    expect(parseResponses(outcome.text).map((r) => r.status)).toEqual([400]);
    expect(outcome.ended).toBe('closed');
  });

  // uWS reads the body by the first length: the answer must count the same unread bytes.
  it.each([
    ['one Content-Length header', 'Content-Length: 2'],
    ['two equal Content-Length headers', 'Content-Length: 2\nContent-Length: 2'],
  ])('with %s, an answer sent before the body arrives says Connection: close', async (_what, lengths) => {
    const outcome = await rawExchange(port, request(`POST /api/lobbies/ABCDEF/join HTTP/1.1\nHost: x\nContent-Type: application/json\n${lengths}`), 500);
    const [answer] = parseResponses(outcome.text);
    expect(answer.status).toBe(401);
    expect(answer.header('connection')).toBe('close');
  });

  it('a chunked body to a native lobby command route is answered 411', async () => {
    const outcome = await rawExchange(port, request('POST /api/lobbies/ABCDEF/chat HTTP/1.1\nHost: x\nContent-Type: application/json\nTransfer-Encoding: chunked', '2\r\n{}\r\n0\r\n\r\n'));
    expect(parseResponses(outcome.text).map((r) => r.status)).toEqual([411]);
  });

});

describe('bodies', () => {
  it('a chunked body is answered 411 with {error}: the length must be known before buffering', async () => {
    const outcome = await rawExchange(port, request('POST /api/lobbies HTTP/1.1\nHost: x\nContent-Type: application/json\nTransfer-Encoding: chunked', '2\r\n{}\r\n0\r\n\r\n'));
    const [answer] = parseResponses(outcome.text);
    expect(answer.status).toBe(411);
    expect(JSON.parse(answer.body).error).toMatch(/Content-Length/);
  });

  // Answered before the body is read, then the connection lingers (the declared body is read and
  // discarded) instead of being reset under a client still sending (rest/native-door.ts).
  it('a body over the limit is answered 413 with one Connection: close, and the connection is not reset', async () => {
    const outcome = await rawExchange(port, request(`POST /api/lobbies HTTP/1.1\nHost: x\nContent-Type: application/json\nContent-Length: ${2 * 1024 * 1024}`, '{}'));
    const [answer] = parseResponses(outcome.text);
    expect(answer.status).toBe(413);
    expect(answer.headers.filter(([name]) => name === 'connection')).toEqual([['connection', 'close']]);
    expect(JSON.parse(answer.body).error).toMatch(/over 1048576 bytes/);
    expect(outcome.ended).not.toBe('reset');
  });
});

describe('malformed percent-escapes in a path parameter', () => {
  it.each(['%', '%zz', '%ff', '%C0%AE'])('GET /api/lobbies/%s is a 404 {error} and logs nothing as an error', async (parameter) => {
    const res = await fetch(`${t.url}/api/lobbies/${parameter}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'not found' });
    expect(logs.errors()).toEqual([]);
  });
});

/**
 * What uWebSockets.js (the pinned 20.30 build) decides before any of our code runs; documented in
 * docs/http-framing.md. The nginx in docker-compose answers all of these itself (400, 414) or
 * forwards them as plain HTTP/1.1 with a Host.
 */
describe('left to uWS (documented)', () => {
  it.concurrent.each([
    ['an HTTP/1.0 request', 'GET /healthz HTTP/1.0\nHost: x'],
    ['a request without Host', 'GET /healthz HTTP/1.1'],
    ['an absolute-form target', 'GET http://x/healthz HTTP/1.1\nHost: x'],
  ])('%s gets no answer (uWS closes it after its idle timeout), and the server carries on', async (_what, head) => {
    const outcome = await rawExchange(port, request(head), 1_500);
    expect(outcome.text).toBe('');
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  });

  it.each([
    ['a Content-Length beside Transfer-Encoding', 'POST /api/lobbies HTTP/1.1\nHost: x\nContent-Length: 5\nTransfer-Encoding: chunked', '0\r\n\r\n'],
    ['a Content-Length that is not a number', 'POST /api/lobbies HTTP/1.1\nHost: x\nContent-Length: 1e3', '{}'],
  ])('%s: uWS closes the connection without an answer', async (_what, head, body) => {
    const outcome = await rawExchange(port, request(head, body));
    expect(outcome.text).toBe('');
    expect(outcome.ended).not.toBe('open');
  });

  it('a request head uWS cannot hold (a 200,000-character path) is dropped without an answer', async () => {
    const outcome = await rawExchange(port, request(`GET /${'a'.repeat(200_000)} HTTP/1.1\nHost: x`));
    expect(outcome.text).toBe('');
    expect(outcome.ended).not.toBe('open');
  });
});

describe('long request targets', () => {
  it('a target over 8 KB that uWS parsed is answered 414 {error}', async () => {
    const [answer] = parseResponses((await rawExchange(port, request(`GET /api/${'a'.repeat(20_000)} HTTP/1.1\nHost: x`))).text);
    expect(answer.status).toBe(414);
    expect(JSON.parse(answer.body).error).toMatch(/over 8192 characters/);
  });

  it('a 70,000-character path gets 414 when uWS receives its head in one read, else the connection is dropped', async () => {
    const outcome = await rawExchange(port, request(`GET /${'a'.repeat(70_000)} HTTP/1.1\nHost: x`));
    if (outcome.text === '') expect(outcome.ended).not.toBe('open');
    else expect(parseResponses(outcome.text).map((r) => r.status)).toEqual([414]);
  });
});
