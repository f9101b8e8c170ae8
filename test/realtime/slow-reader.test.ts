import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LobbyDetail } from '../../schema/lobby';
import { sampleLobby } from './support/fake-lobby-services';
import { LobbyWatcher } from './support/lobby-watcher';
import { connect } from './support/socket-client';
import { startSocketLayer, type SocketLayer } from './support/socket-layer';

/*
 * Issue 28 §3: under saturation a subscriber that reads its socket too slowly has frames skipped
 * by uWS (past the 1 MB of backpressure it allows a socket, as any server must bound it). The
 * protocol makes that a visible gap, never a wrong lobby: the client sees the version jump,
 * subscribes again and holds the current lobby, even when the skipped updates were the last ones
 * (the server re-announces the last version to a socket it saw fall behind, once it has drained). Driven on the socket layer alone with 50 KB
 * lobbies, so megabytes pile up in a moment.
 */
const UPDATES = 240;
const STEP = 8;

let layer: SocketLayer;

beforeAll(async () => {
  layer = await startSocketLayer();
});

afterAll(async () => {
  await layer?.close();
});

/** A lobby of 50 KB versions, and a watcher of it whose client has stopped reading its TCP socket. */
async function stalledWatcher(code: string) {
  const { services, url } = layer;
  const big = (version: number): LobbyDetail => ({ ...sampleLobby(code, version), name: `${'x'.repeat(50_000)} ${version}` });
  services.lobbiesByCode.set(code, big(1));
  const stalled = await connect(url);
  const watcher = await LobbyWatcher.start(stalled, code, false);
  // The client stops reading its TCP socket: the kernel's buffers fill, then the 1 MB uWS keeps for it.
  const tcp = (stalled.io.engine.transport as unknown as { ws: { _socket: { pause(): void; resume(): void } } }).ws._socket;
  tcp.pause();
  return { big, stalled, watcher, tcp };
}

it('skips frames to a client that stops reading its socket, and that client sees the jump, resyncs and ends holding the current lobby', async () => {
  const { sockets, services, url } = layer;
  const code = 'SLOW1';
  const { big, watcher, tcp } = await stalledWatcher(code);
  const steady = await LobbyWatcher.start(await connect(url), code, false);

  // 12 MB in steps the reading client keeps up with (a step is 400 KB, under its own backpressure bound).
  for (let version = 2; version <= UPDATES + 1; version++) {
    services.lobbiesByCode.set(code, big(version));
    sockets.broadcast.lobbyUpdated(code, version, big(version));
    if (version % STEP === 0) await steady.reached(version);
  }
  tcp.resume();
  await Promise.all([watcher.reached(UPDATES + 1), steady.reached(UPDATES + 1)]);

  expect(watcher.gaps.length).toBeGreaterThan(0);
  expect(watcher.resyncs).toBe(watcher.gaps.length);
  expect(watcher.lobby).toEqual(big(UPDATES + 1));
  // A version delivered again is only the server's marked re-announcement, never a plain repeat.
  expect([watcher.duplicates, steady.duplicates]).toEqual([[], []]);
  expect(steady.gaps).toEqual([]);
  expect(steady.deliveries).toBe(UPDATES);
});

it('answers a subscribe from a client too far behind to be sent anything, or disconnects it: never leaves it waiting', async () => {
  const { sockets, services } = layer;
  const code = 'SLOW2';
  const { big, stalled, tcp } = await stalledWatcher(code);
  for (let version = 2; version <= 120; version++) {
    services.lobbiesByCode.set(code, big(version));
    sockets.broadcast.lobbyUpdated(code, version, big(version));
  }
  await new Promise((resolve) => setTimeout(resolve, 200));

  const answered = (stalled.timeout(10_000) as unknown as { emitWithAck(event: string, payload: unknown): Promise<unknown> })
    .emitWithAck('lobby:subscribe', { code })
    .then(() => 'answered', () => 'no answer');
  const disconnected = new Promise<string>((resolve) => stalled.once('disconnect', () => resolve('disconnected')));
  tcp.resume();

  expect(await Promise.race([answered, disconnected])).not.toBe('no answer');
});
