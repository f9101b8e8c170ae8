import type { LobbyChatMessage, LobbyDetail, LobbySummary } from '../../schema/lobby';

/**
 * Where the lobby engine announces changes. The realtime layer implements it with socket.io
 * rooms (through the Redis adapter, so every instance's subscribers receive it); tests and the
 * REST-only composition can record or drop the calls.
 */
export interface LobbyBroadcast {
  lobbyUpdated(code: string, version: number, lobby: LobbyDetail): void;
  lobbyChat(code: string, message: LobbyChatMessage): void;
  lobbiesChanged(lobbies: LobbySummary[]): void;
}

export const SILENT_BROADCAST: LobbyBroadcast = {
  lobbyUpdated: () => undefined,
  lobbyChat: () => undefined,
  lobbiesChanged: () => undefined,
};
