import net from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lobbyCommandContracts } from '../../../schema/routes/lobby-routes';
import type { RouteContract } from '../../../schema/route-contract';
import { bindNativeRoute } from '../../../rest/native-route-binder';
import { HttpError } from '../../../rest/http-error';
import { createUwsApp, listen, type Listening } from '../../../host/uws-host';
import type { AnswerTrail } from '../../../src/door/answer-trail';
import type { PresentedRequest } from '../../../src/door/presented-request';
import { InFlight } from '../../../src/server-lifecycle';
import { captureLogs } from '../../support/log-capture';
import { parseResponses, rawExchange } from '../../support/raw-http';

/*
 * The native binder on a real uWS app and real HTTP, with a credential check that accepts the
 * header `x-test-user` and a handler the test steers by the body. The lobby routes bind their
 * commands with it (test/realtime/door-parity.test.ts compares them with the socket door).
 */
const voteMap = lobbyCommandContracts['vote-map'] as RouteContract;
const finished: Array<{ path: string; status: number }> = [];
const inFlight = new InFlight();
const logs = captureLogs();
let held: { release: () => void } | undefined;
let listening: Listening;
let url: string;

async function authenticate(req: PresentedRequest, _route: RouteContract, trail: AnswerTrail): Promise<{ user: string }> {
  trail.onAnswered((status) => finished.push({ path: req.path, status }));
  // The test's credential: a bearer header naming the user.
  const user = /^Bearer (\w+)$/.exec(req.authorization ?? '')?.[1];
  if (user === undefined) throw new HttpError(401, 'sign in first');
  trail.setHeader('Set-Cookie', 'renewed=1; Path=/');
  return { user };
}

beforeAll(async () => {
  const app = createUwsApp();
  bindNativeRoute(app, voteMap, { authenticate, inFlight, logger: logs.logger, observers: [], addressOf: (peer) => peer }, async ({ params, body, caller }) => {
    const map = (body as { map: string }).map;
    if (map === 'cp_hold') await new Promise<void>((release) => (held = { release }));
    if (map === 'cp_throw') throw new Error('boom');
    return { code: (params as { code: string }).code, map, by: caller.user };
  });
  listening = await listen(app, '127.0.0.1', 0);
  url = `http://127.0.0.1:${listening.port}`;
});
afterAll(() => listening?.stopAccepting());

const vote = (body: string, headers: Record<string, string> = { authorization: 'Bearer ann', 'content-type': 'application/json' }, code = 'ABCDEF') =>
  fetch(`${url}/api/lobbies/${code}/vote-map`, { method: 'POST', headers, body });

describe('a native route', () => {
  it('answers the handler result with the contract status, parsed path and body, and the caller', async () => {
    const res = await vote('{"map":"cp_process_final"}');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({ code: 'ABCDEF', map: 'cp_process_final', by: 'ann' });
  });

  it('sends the headers the credential check set, such as a renewed session cookie', async () => {
    const res = await vote('{"map":"cp_process_final"}');
    expect(res.headers.get('set-cookie')).toBe('renewed=1; Path=/');
  });

  it('tells the credential check the final status when the answer is sent (the key audit)', async () => {
    await vote('{"map":7}');
    expect(finished.at(-1)).toEqual({ path: '/api/lobbies/ABCDEF/vote-map', status: 400 });
  });

  it('answers malformed JSON 400 once the credential passed', async () => {
    const res = await vote('{"map":');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'malformed JSON body' });
  });

  it('answers malformed JSON without a credential 401: credentials come before the parse, at every door', async () => {
    const res = await vote('{"map":', { 'content-type': 'application/json' });
    expect(res.status).toBe(401);
  });

  it('answers a form body 415: commands take JSON only', async () => {
    const res = await vote('map=cp_x', { authorization: 'Bearer ann', 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(415);
  });

  it('answers a missing credential 401 before it reads the path or the body', async () => {
    const res = await vote('[]', { 'content-type': 'application/json' }, 'bad');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'sign in first' });
  });

  it('answers a body the contract refuses 400 naming the field', async () => {
    const res = await vote('{"map":7}');
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/map/);
  });

  it('answers an array where the body object belongs 400', async () => {
    const res = await vote('[1,2,3]');
    expect(res.status).toBe(400);
  });

  it('answers a path parameter with a malformed escape 404', async () => {
    const res = await vote('{"map":"cp_process_final"}', undefined, '%zz');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'not found' });
  });

  it('answers an unexpected error 500 {error} and logs it', async () => {
    const res = await vote('{"map":"cp_throw"}');
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'internal error' });
    expect(logs.errors().some((line) => line.includes('boom'))).toBe(true);
  });

  it('reads a body that arrives in pieces, multi-byte characters split between them', async () => {
    const body = Buffer.from('{"map":"cp_été"}');
    const head = `POST /api/lobbies/ABCDEF/vote-map HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ann\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const split = body.indexOf(0xc3) + 1;
    const socket = net.connect(listening.port, '127.0.0.1');
    await once(socket, 'connect');
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('utf8');
        if (parseResponses(text).length > 0) resolve(text);
      });
    });
    await new Promise((written) => socket.write(Buffer.concat([Buffer.from(head), body.subarray(0, split)]), written));
    // A pause so that the server reads the body in two pieces; the answer must be the same either way.
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.write(body.subarray(split));
    const [response] = parseResponses(await answer);
    socket.destroy();
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ code: 'ABCDEF', map: 'cp_été', by: 'ann' });
  });

  it('answers 408 and closes when the body stops arriving', async () => {
    const head = 'POST /api/lobbies/ABCDEF/vote-map HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ann\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"map"';
    const outcome = await rawExchange(listening.port, head, 7_000);
    const [answer] = parseResponses(outcome.text);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual({ error: 'request body timed out' });
    expect(outcome.ended).toBe('closed');
  }, 10_000);

  it('answers a request still running at shutdown 503 with Connection: close, drops its late answer, and refuses new ones', async () => {
    const running = vote('{"map":"cp_hold"}');
    await expect.poll(() => held !== undefined).toBe(true);
    expect(await inFlight.drain(10)).toBe(1);
    expect(inFlight.refuseRemaining()).toBe(1);
    const res = await running;
    expect(res.status).toBe(503);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({ error: 'server shutting down; retry on another instance' });
    held!.release();
    const late = await vote('{"map":"cp_process_final"}');
    expect(late.status).toBe(503);
  });
});
