import type { LobbyDetail } from '../../schema/lobby';
import { conflict, notFound } from '../domain/domain-error';
import { rosterOf, type RosterPlayer } from '../domain/servers/match-setup';
import { decideExtension } from '../domain/servers/reservation-request';
import type { LobbyLogRepository } from './lobby-log-repository';
import type { ReservationRepository } from './reservation-repository';

export interface PluginServiceDeps {
  repo: ReservationRepository;
  logs: LobbyLogRepository;
  lobbies: { detail(code: string): Promise<LobbyDetail | null> };
  regionCapacity: number;
  clock: () => number;
  /** The reservation's end moved: its lifecycle wakes for the new end. */
  wake(id: number, at: number): Promise<void>;
}

/** What the in-game plugin asks the league (X-SVC-Plugin-Secret routes). */
export class PluginService {
  constructor(private readonly deps: PluginServiceDeps) {}

  async extend(reservationId: number, minutes: number): Promise<{ ok: true; new_expires_at: string }> {
    const record = await this.deps.repo.byId(reservationId);
    if (!record || record.status !== 'active') throw notFound('no active reservation with that id');
    const decided = decideExtension(record, minutes);
    if (!decided.ok) throw decided.error;
    const extended = await this.deps.repo.extend(reservationId, decided.state.endsAt, this.deps.regionCapacity);
    if (extended === null) throw notFound('no active reservation with that id');
    if (extended === 'region_full') throw conflict('the region has no room to extend into');
    await this.deps.wake(reservationId, this.deps.clock());
    return { ok: true, new_expires_at: new Date(extended.endsAt).toISOString() };
  }

  async who(reservationId: number): Promise<{ reservation_id: number; lobby_code: string | null; players: RosterPlayer[] }> {
    const record = await this.deps.repo.byId(reservationId);
    if (!record) throw notFound('reservation not found');
    const lobby = record.lobbyCode ? await this.deps.lobbies.detail(record.lobbyCode) : null;
    return { reservation_id: record.id, lobby_code: record.lobbyCode, players: lobby ? rosterOf(lobby) : [] };
  }

  async reportMatch(reservationId: number, logUrl: string, demoUrl: string | null): Promise<{ ok: true }> {
    const record = await this.deps.repo.byId(reservationId);
    if (!record) throw notFound('reservation not found');
    if (!record.lobbyCode) throw notFound('the reservation has no lobby to report for');
    await this.deps.logs.markReady(record.lobbyCode, record.id, logUrl, demoUrl, this.deps.clock());
    return { ok: true };
  }
}
