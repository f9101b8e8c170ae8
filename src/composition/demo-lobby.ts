import type { Logger } from 'pino';
import type { UsersRepository } from '../db/users-repository';
import { demoPlatformId } from '../db/demo-players';
import type { LobbyEngine } from '../engine/lobby-engine';
import type { Caller } from '../identity/caller';

/**
 * Host and players of the demo lobby: a newcomer finds a gathering lobby with people and votes in
 * it and room to join. Seats are taken in the draft (captains pick from the pool), which would
 * close the lobby to joins, so the demo players wait in the pool as players do before a draft.
 */
const HOST = 0;
const PLAYERS: Array<{ player: number; vote?: string }> = [
  { player: 1, vote: 'cp_process_final' },
  { player: 2, vote: 'cp_sunshine' },
  { player: 3, vote: 'cp_process_final' },
  { player: 4 },
];

/**
 * Opens the demo lobby right after demo data was seeded into an empty database (never in
 * production: loadConfig never seeds there). The demo players act through the engine exactly as
 * players do, so the lobby is an ordinary one. A step that is refused is logged and skipped.
 */
export async function openDemoLobby(input: { lobbies: LobbyEngine; users: UsersRepository; logger: Logger }): Promise<string | null> {
  const { lobbies, users, logger } = input;
  const callerOf = async (player: number): Promise<Caller | null> => {
    const user = await users.findByPlatformId(demoPlatformId(player));
    return user && { kind: 'session', user, sessionId: 'demo' };
  };
  const host = await callerOf(HOST);
  if (!host) return null;
  try {
    const { code } = await lobbies.create(host, { format: '6v6', name: 'Demo lobby: join in' });
    for (const { player, vote } of PLAYERS) {
      const caller = await callerOf(player);
      if (!caller) continue;
      await lobbies.command(code, { type: 'join' }, caller);
      if (vote) await lobbies.command(code, { type: 'vote-map', map: vote }, caller);
    }
    return code;
  } catch (error) {
    logger.warn({ err: error }, 'the demo lobby could not be opened completely');
    return null;
  }
}
