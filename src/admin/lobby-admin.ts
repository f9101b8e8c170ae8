import type { LobbyDetail } from '../../schema/lobby';
import { AdminAuditRepository } from '../db/admin-audit-repository';
import type { Database } from '../db/orm';
import { DomainError, notFound } from '../domain/domain-error';
import type { LobbyCommand } from '../domain/lobby';
import { userOf, type Caller } from '../identity/caller';

export interface LobbyAdminDeps {
  db: Pick<Database, 'em'>;
  lobbies: {
    detail(code: string): Promise<LobbyDetail | null>;
    command(code: string, command: LobbyCommand, caller: Caller): Promise<unknown>;
    lobbyOf(userId: number): Promise<string | null>;
  };
  /** Unpins a lobby from the reservation that serves it, so the server takes the host's next lobby. */
  reservations: { releaseLobby(reservationId: number, code: string): Promise<boolean> };
}

const brief = (lobby: LobbyDetail) => ({ code: lobby.code, phase: lobby.phase, version: lobby.version, players: lobby.pool.length + seated(lobby) });
const seated = (lobby: LobbyDetail) => [...lobby.teams.red, ...lobby.teams.blu].filter((slot) => slot.user !== null).length;

/** What an admin does to lobbies: end a stuck one, take a banned player out. Both go through the engine's rules. */
export class LobbyAdmin {
  constructor(private readonly deps: LobbyAdminDeps) {}

  /**
   * Ends a lobby in any open phase (the rules let an admin cancel any lobby): its players are
   * free to join another at once, watchers get the update, and the game server it was pinned to
   * is released (it serves no lobby until its owner pins the next one). No match is recorded.
   */
  async forceEnd(caller: Caller, code: string, reason: string): Promise<LobbyDetail> {
    const before = await this.deps.lobbies.detail(code);
    if (!before) throw notFound('lobby not found');
    await this.deps.lobbies.command(code, { type: 'cancel' }, caller);
    const after = (await this.deps.lobbies.detail(code))!;
    const reservation = before.reservation_id;
    const released = reservation !== null && (await this.deps.reservations.releaseLobby(reservation, code));
    await this.#audit(caller, 'lobby.force_end', code, brief(before), { ...brief(after), released_reservation: released ? reservation : null }, reason);
    return after;
  }

  /**
   * A newly banned user leaves the open lobby they are in, as an admin's kick. In a live match
   * they stay: the match is under way and its result still counts (the rules refuse the kick).
   */
  async removeBanned(caller: Caller, userId: number, reason: string): Promise<void> {
    const code = await this.deps.lobbies.lobbyOf(userId);
    if (code === null) return;
    try {
      await this.deps.lobbies.command(code, { type: 'kick', userId }, caller);
    } catch (error) {
      if (error instanceof DomainError && (error.kind === 'conflict' || error.kind === 'not_found')) return;
      throw error;
    }
    await this.#audit(caller, 'lobby.remove_banned', code, { user_id: userId }, null, reason);
  }

  async #audit(caller: Caller, action: string, code: string, before: unknown, after: unknown, reason: string): Promise<void> {
    await this.deps.db.em().transactional((em) =>
      AdminAuditRepository.insertIn(em, { actorId: userOf(caller).id, action, targetType: 'lobby', targetId: String(code), before, after, reason }),
    );
  }
}
