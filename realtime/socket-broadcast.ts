import type { Server } from 'socket.io';
import type { ServerToClientEvents } from '../schema/realtime';
import type { LobbyBroadcast } from '../src/engine/lobby-broadcast';
import type { RecoveringAdapter } from './recovering-adapter';

export const LOBBIES_ROOM = 'lobbies';

export function lobbyRoom(code: string): string {
  return `lobby:${code}`;
}

/**
 * The lobby feed's announcements as room broadcasts to this instance's sockets (every instance
 * receives the feed). Always `io.local.to(oneRoom)` with no `except`: socket.io on uWS turns
 * exactly that shape into one native publish (a sender-excluding `socket.to` or a multi-room emit
 * falls back to a loop over sockets).
 */
export function socketBroadcast(io: Pick<Server<never, ServerToClientEvents>, 'local' | 'of'>): LobbyBroadcast {
  return {
    lobbyUpdated: (code, version, lobby) => void io.local.to(lobbyRoom(code)).emit('lobby:update', { code, version, lobby }),
    lobbyChat: (code, message) => void io.local.to(lobbyRoom(code)).emit('lobby:chat', { code, message }),
    lobbiesChanged: (lobbies) => void io.local.to(LOBBIES_ROOM).emit('lobbies:update', { lobbies }),
    // The same as the two above for the feed's JSON text, sent as it came (see RecoveringAdapter).
    lobbyEventJson: (code, event, json) => (io.of('/').adapter as unknown as RecoveringAdapter).broadcastJson(lobbyRoom(code), event, json),
  };
}
