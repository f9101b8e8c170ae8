import type { Server } from 'socket.io';
import type { ServerToClientEvents } from '../schema/realtime';
import type { LobbyBroadcast } from '../src/engine/lobby-broadcast';

export const LOBBIES_ROOM = 'lobbies';

export function lobbyRoom(code: string): string {
  return `lobby:${code}`;
}

/**
 * The engine's announcements as room broadcasts. Always `io.to(oneRoom)` with no `except`:
 * socket.io on uWS turns exactly that shape into one native publish (a sender-excluding
 * `socket.to` or a multi-room emit falls back to a loop over sockets).
 */
export function socketBroadcast(io: Pick<Server<never, ServerToClientEvents>, 'to'>): LobbyBroadcast {
  return {
    lobbyUpdated: (code, version, lobby) => void io.to(lobbyRoom(code)).emit('lobby:update', { code, version, lobby }),
    lobbyChat: (code, message) => void io.to(lobbyRoom(code)).emit('lobby:chat', { code, message }),
    lobbiesChanged: (lobbies) => void io.to(LOBBIES_ROOM).emit('lobbies:update', { lobbies }),
  };
}
