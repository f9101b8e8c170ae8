import { request as httpRequest } from 'node:http';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs, type CapturedLogs } from '../support/log-capture';
import { parseResponses, rawExchange } from '../support/raw-http';
import { startTestServer, type TestServer } from '../support/test-server';

/*
 * Every answer, whoever gives it, carries a request id that its access log line carries too:
 * framing refusals sent before the exchange ran, socket subscriptions, and the lines a handler
 * logs while it runs.
 */
let t: TestServer;
let logs: CapturedLogs;

beforeAll(async () => {
  logs = captureLogs('info');
  t = await startTestServer({}, { logger: logs.logger });
}, 60_000);
afterAll(() => t?.close());

const entries = () => logs.lines().map((line) => JSON.parse(line) as Record<string, unknown>);
const accessLine = (requestId: string) => expect.poll(() => entries().find((entry) => entry.msg === 'request' && entry.requestId === requestId));

describe('a framing refusal', () => {
  it.each([
    ['by the guard in front of express', '/api/lobbies', 'unmatched'],
    ['by a native route', '/api/lobbies/ABCDEF/join', '/api/lobbies/:code/join'],
  ])('%s answers the request id and writes its access line', async (_who, path, route) => {
    const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nX-Request-Id: framing-${route.length}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`;
    const [answer] = parseResponses((await rawExchange(t.server.port, head)).text);
    expect(answer.status).toBe(400);
    expect(answer.header('x-request-id')).toBe(`framing-${route.length}`);
    await accessLine(`framing-${route.length}`).toMatchObject({ door: 'http', method: 'POST', route, status: 400 });
  });

  it('of a declared 2 MB JSON body answers 413 with a request id, read back by node:http, and writes its access line', async () => {
    const body = Buffer.alloc(2 * 1024 * 1024, 0x20);
    const answer = await new Promise<{ status: number; id: string | undefined }>((resolve, reject) => {
      const req = httpRequest(`${t.url}/api/lobbies`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length, 'x-request-id': 'too-large-json' } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, id: res.headers['x-request-id'] as string | undefined }));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(answer).toEqual({ status: 413, id: 'too-large-json' });
    await accessLine('too-large-json').toMatchObject({ door: 'http', route: 'unmatched', status: 413 });
  });
});

describe('a socket subscription', () => {
  it('writes an access line with the event as its route and the ack status', async () => {
    const socket = io(t.url, { transports: ['websocket'], reconnection: false });
    try {
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('connect_error', reject));
      const ack = await socket.timeout(5_000).emitWithAck('lobby:subscribe', { code: 'NOSUCH' });
      expect(ack).toMatchObject({ status: 404 });
      await expect
        .poll(() => entries().find((entry) => entry.msg === 'request' && entry.route === 'lobby:subscribe'))
        .toMatchObject({ door: 'socket', status: 404, requestId: expect.any(String) });
    } finally {
      socket.close();
    }
  });
});

describe('a handler', () => {
  it("logs with the exchange's request id", async () => {
    // A callback no provider signed: the login handler logs its refusal.
    const res = await fetch(`${t.url}/auth/platform/callback?openid.mode=cancel`, { redirect: 'manual', headers: { 'x-request-id': 'handler-line' } });
    expect(res.status).toBe(302);
    await expect.poll(() => entries().find((entry) => entry.msg === 'login refused')).toMatchObject({ requestId: 'handler-line' });
  });
});
