import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RequestObserver, RequestRecord } from '../../src/observability/request-observer';
import { poll } from '../support/poll';
import { sampleLobby } from './support/fake-lobby-services';
import { startSocketLayer, type SocketLayer } from './support/socket-layer';
import { connect, request } from './support/socket-client';

/*
 * Issue 21's refusals at the socket door: each writes its access line (reaches the request
 * observers) as every other answer does, and a handshake refused for a while says how long.
 */
let layer: SocketLayer;
const records: RequestRecord[] = [];

beforeAll(async () => {
  layer = await startSocketLayer({ limits: { perAddress: 1_000, subscriptionsPerSocket: 1, addressOf: (peer) => peer } });
  (layer.services.exchange.observers as RequestObserver[]).push((record) => records.push(record));
  layer.services.lobbiesByCode.set('RF1', sampleLobby('RF1'));
  layer.services.lobbiesByCode.set('RF2', sampleLobby('RF2'));
});

afterAll(async () => {
  await layer?.close();
});

const socketLines = (route: string) => records.filter((r) => r.door === 'socket' && r.route === route).map((r) => ({ method: r.method, status: r.status }));

it('reports a malformed lobby command, every event the guard drops and a subscription over the limit to the request observers, each once with its status', async () => {
  const socket = await connect(layer.url);
  expect(await request(socket, 'lobby:command', 'not an object')).toMatchObject({ status: 400 });
  expect(await request(socket, 'lobby:command', { code: 'RF1', type: 'no-such-command' })).toEqual({ error: 'type: not a lobby command', status: 400 });
  expect(await request(socket, 'no:such-event', {})).toEqual({ error: 'event: unknown event name', status: 400 });
  (socket as unknown as { emit(event: string): void }).emit('no:such-event-without-ack');
  let deep: unknown = 1;
  for (let i = 0; i < 40; i++) deep = [deep];
  expect(await request(socket, 'lobby:subscribe', deep)).toMatchObject({ status: 400 });
  expect(await request(socket, 'lobby:subscribe', { code: 'RF1', padding: 'x'.repeat(70_000) })).toMatchObject({ status: 413 });
  expect(await request(socket, 'lobby:subscribe', { code: 'RF1' })).toMatchObject({ lobby: { code: 'RF1' } });
  expect(await request(socket, 'lobby:subscribe', { code: 'RF2' })).toMatchObject({ status: 429 });

  await poll(() => socketLines('unmatched').length, (n) => n === 2, { what: 'access lines of the unknown events' });
  expect(socketLines('lobby:command')).toEqual([{ method: 'EMIT', status: 400 }, { method: 'EMIT', status: 400 }]);
  expect(socketLines('unmatched')).toEqual([{ method: 'EMIT', status: 400 }, { method: 'EMIT', status: 400 }]);
  expect(socketLines('lobby:subscribe')).toEqual([
    { method: 'EMIT', status: 400 },
    { method: 'EMIT', status: 413 },
    { method: 'EMIT', status: 200 },
    { method: 'EMIT', status: 429 },
  ]);
});

it('refuses a handshake over a key rate limit with 429 and a store that cannot answer with 503, each with retry_after', async () => {
  const refusalOf = (token: string) => connect(layer.url, { token }).then(() => null, (error: { data?: unknown }) => error.data);
  expect(await refusalOf('limited')).toEqual({ status: 429, error: 'API key rate limit exceeded', retry_after: 7 });
  expect(await refusalOf('unavailable')).toEqual({ status: 503, error: 'store unavailable', retry_after: 1 });
});

it('writes an access line for each refused handshake, with the status the client was refused with', async () => {
  const refusalOf = (token: string) => connect(layer.url, { token }).then(() => null, (error: { data?: { status: number } }) => error.data?.status);
  const handshakeLines = () => records.filter((r) => r.door === 'socket' && r.route === 'handshake').map((r) => ({ method: r.method, status: r.status }));
  const before = handshakeLines().length;
  expect(await refusalOf('limited')).toBe(429);
  expect(await refusalOf('unavailable')).toBe(503);
  await connect(layer.url);
  expect(handshakeLines().slice(before)).toEqual([
    { method: 'CONNECT', status: 429 },
    { method: 'CONNECT', status: 503 },
  ]);
});
