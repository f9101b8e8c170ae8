import type { Server } from 'socket.io';
import type { ServerToClientEvents } from '../schema/realtime';
import type { LobbyBroadcast } from '../src/engine/lobby-broadcast';
import { BurstDelivery } from './burst-delivery';
import type { RecoveringAdapter } from './recovering-adapter';

export const LOBBIES_ROOM = 'lobbies';

/** The most a busy feed waits to be sent together (see BurstDelivery); an idle one does not wait. */
export const FEED_BURST_MS = 5;

export function lobbyRoom(code: string): string {
  return `lobby:${code}`;
}

export interface SocketBroadcast extends LobbyBroadcast {
  /** Sends what is still queued; for shutdown. */
  flush(): void;
}

/**
 * The lobby feed's announcements as room broadcasts to this instance's sockets (every instance
 * receives the feed). Always `io.local.to(oneRoom)` with no `except`: socket.io on uWS turns
 * exactly that shape into one native publish (a sender-excluding `socket.to` or a multi-room emit
 * falls back to a loop over sockets). Every kind goes through one queue, delivered in bursts, so
 * the order of the feed is the order of the sends.
 */
export function socketBroadcast(io: Pick<Server<never, ServerToClientEvents>, 'local' | 'of'>, burstMs = FEED_BURST_MS): SocketBroadcast {
  const burst = new BurstDelivery<() => void>((sends) => {
    for (const send of sends) send();
  }, burstMs);
  return {
    lobbyUpdated: (code, version, lobby) => burst.push(() => void io.local.to(lobbyRoom(code)).emit('lobby:update', { code, version, lobby })),
    lobbyChat: (code, message) => burst.push(() => void io.local.to(lobbyRoom(code)).emit('lobby:chat', { code, message })),
    lobbiesChanged: (lobbies) => burst.push(() => void io.local.to(LOBBIES_ROOM).emit('lobbies:update', { lobbies })),
    // The same as the two above for the feed's JSON text, sent as it came (see RecoveringAdapter).
    lobbyEventJson: (code, event, json) =>
      burst.push(() => (io.of('/').adapter as unknown as RecoveringAdapter).broadcastJson(lobbyRoom(code), event, json)),
    flush: () => burst.flush(),
  };
}
