import type { LobbyChatMessage, LobbyDetail, LobbySummary } from './lobby';

/**
 * The socket.io protocol (CONTRACT.md "Realtime protocol"), exported for clients to import:
 * `io<ServerToClientEvents, ClientToServerEvents>(url)`.
 */
export type CommandAck = ({ ok: true } & Record<string, unknown>) | { error: string; status: number };
export type SubscribeAck = { lobby: LobbyDetail } | { error: string; status: number };

export interface ClientToServerEvents {
  'lobby:subscribe': (payload: { code: string }, ack: (answer: SubscribeAck) => void) => void;
  'lobby:unsubscribe': (payload: { code: string }, ack?: (answer: { ok: true }) => void) => void;
  'lobbies:subscribe': (ack: (answer: { lobbies: LobbySummary[] }) => void) => void;
  'lobby:command': (payload: { code: string; type: string } & Record<string, unknown>, ack: (answer: CommandAck) => void) => void;
}

export interface ServerToClientEvents {
  'lobby:update': (payload: { code: string; version: number; lobby: LobbyDetail }) => void;
  'lobby:chat': (payload: { code: string; message: LobbyChatMessage }) => void;
  'lobbies:update': (payload: { lobbies: LobbySummary[] }) => void;
}

export type InterServerEvents = Record<string, never>;

export interface SocketData {
  userId: number | null;
  credential: 'session' | 'premium' | 'admin' | 'anonymous';
}
