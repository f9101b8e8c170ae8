import { DomainError, succeed } from '../domain/domain-error';
import { applyLobbyCommand, TEAMS, voteCounts, type LobbyState } from '../domain/lobby';
import type { MatchReport } from '../db/match-repository';
import type { MatchRecorder } from './engine-ports';
import { UNRECORDED_MATCHES } from './live-keys';
import { SYSTEM_ACTOR } from './lobby-actors';
import type { LobbyContext } from './lobby-context';
import { transact } from './lobby-transaction';

/** How long until a match that could not be written is tried again by the deadline worker. */
export const RECORD_RETRY_MS = 5_000;

/** The most voted map of the pool; on a tie or with no votes, the earliest in the pool. */
export function chosenMap(state: LobbyState): string | null {
  const counts = voteCounts(state);
  let best: string | null = state.mapPool[0] ?? null;
  for (const map of state.mapPool) if (counts[map] > (best === null ? -1 : counts[best])) best = map;
  return best;
}

export function matchReportOf(state: LobbyState): MatchReport {
  const endedAt = state.endedAt ?? state.createdAt;
  return {
    lobbyCode: state.code,
    format: state.format,
    map: chosenMap(state),
    scoreRed: state.scoreRed ?? 0,
    scoreBlu: state.scoreBlu ?? 0,
    startedAt: new Date(state.startedAt ?? endedAt),
    endedAt: new Date(endedAt),
    players: TEAMS.flatMap((team) =>
      state.teams[team].flatMap((slot) => (slot.userId === null ? [] : [{ userId: slot.userId, team, class: slot.class }])),
    ),
  };
}

/**
 * Turns an ended lobby into a match row. The order keeps it right across crashes: the lobby is
 * already ended with its score (so a second report is refused); recordMatch is idempotent per
 * lobby code (so running it again finds the same match); only then is the match id stored on the
 * lobby. A failure on the way is retried by the deadline worker, and at start-up by `recover`.
 */
export class MatchReporter {
  constructor(
    private readonly ctx: LobbyContext,
    private readonly matches: MatchRecorder,
  ) {}

  async record(state: LobbyState): Promise<number | null> {
    if (state.phase !== 'ended') return null;
    if (state.matchId !== null) return state.matchId;
    const { live, documents, clock, effects, invalidate } = this.ctx;
    try {
      const { matchId } = await this.matches.recordMatch(matchReportOf(state));
      const committed = await transact(this.ctx, state.code, [], (lobby, _docs, now) => ({
        outcome: lobby.matchId !== null ? succeed(lobby) : applyLobbyCommand(lobby, { type: 'record-match', matchId }, SYSTEM_ACTOR, now),
      }));
      await effects.committed(committed, 'record-match');
      invalidate('matches');
      invalidate('lobbies');
      invalidate('points');
      return committed.after.matchId ?? matchId;
    } catch (error) {
      // A refusal of the data itself (an unknown player) would fail the same way forever.
      if (!(error instanceof DomainError)) await live.schedule(UNRECORDED_MATCHES, state.code, clock() + RECORD_RETRY_MS).catch(() => undefined);
      throw error;
    }
  }

  /** The worker's and start-up's entry: record the lobby's match if it ended without one. */
  async recordCode(code: string): Promise<number | null> {
    const loaded = await this.ctx.documents.load(code);
    return loaded ? this.record(loaded.state) : null;
  }
}
