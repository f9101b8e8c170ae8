import type { UserPublic } from '../../../schema/user';
import { isoTime as iso } from '../iso-time';
import { draftTurn } from './draft-turn';
import { filledCount, isReady } from './lobby-membership';
import { TEAMS, type LobbyState, type Slot } from './lobby-state';
import type { LobbyDetail, LobbySlot, LobbySummary, LobbyVotes } from './lobby-wire';

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

/** Profiles are stored on join, so the fallback only guards a hand-edited document. */
export function profileOf(state: LobbyState, userId: number): UserPublic {
  return (
    state.profiles[String(userId)] ?? {
      id: userId, platform_id: '', username: `user ${userId}`, avatar_url: null, elo: 0, name_color: null, profile_frame: null,
    }
  );
}

export function voteCounts(state: LobbyState): LobbyVotes {
  // fromEntries, not assignment: a map named like Object.prototype's own keys stays a plain key.
  const counts: LobbyVotes = Object.fromEntries(state.mapPool.map((map) => [map, 0]));
  for (const voter in state.votes) {
    const map = state.votes[voter];
    if (Object.hasOwn(counts, map)) counts[map] += 1;
  }
  return counts;
}

export const myVote = (state: LobbyState, userId: number): string | null => state.votes[String(userId)] ?? null;

function slotView(state: LobbyState, slot: Slot, now: number): LobbySlot {
  const ready = slot.userId !== null && isReady(slot, now);
  return {
    index: slot.index,
    class: slot.class,
    user: slot.userId === null ? null : profileOf(state, slot.userId),
    ready,
    ready_until: ready ? isoOrNull(slot.readyUntil) : null,
  };
}

/** The whole lobby as GET /api/lobbies/{code} and `lobby:update` carry it; `ready` is as of `now`. */
export function lobbyDetail(state: LobbyState, now: number): LobbyDetail {
  return { ...detailHead(state), teams: teamsView(state, now), pool: poolView(state), ...detailTail(state) };
}

/*
 * A detail in its three kinds of part, in the wire's order (head, teams and pool, tail): a
 * renderer may keep the JSON of the teams and the pool, the bulk of a lobby's bytes, while the
 * state parts they come from are the same objects (see LobbyUpdateRenderer).
 */

export function detailHead(state: LobbyState): Pick<LobbyDetail, 'code' | 'name' | 'format' | 'phase' | 'host_id' | 'captains'> {
  return { code: state.code, name: state.name, format: state.format, phase: state.phase, host_id: state.hostId, captains: { red: state.captains.red, blu: state.captains.blu } };
}

/** The seated teams as of `now`, which decides only the ready flags: see `readyChangesAt`. */
export function teamsView(state: LobbyState, now: number): LobbyDetail['teams'] {
  return { red: state.teams.red.map((s) => slotView(state, s, now)), blu: state.teams.blu.map((s) => slotView(state, s, now)) };
}

/** The first moment after `now` at which a ready flag lapses (and teamsView changes by time alone); Infinity when none will. */
export function readyChangesAt(state: LobbyState, now: number): number {
  let at = Number.POSITIVE_INFINITY;
  for (const team of TEAMS) {
    for (const slot of state.teams[team]) if (slot.userId !== null && slot.readyUntil !== null && slot.readyUntil > now && slot.readyUntil < at) at = slot.readyUntil;
  }
  return at;
}

export function poolView(state: LobbyState): LobbyDetail['pool'] {
  return state.pool.map((id) => profileOf(state, id));
}

export function detailTail(state: LobbyState): Omit<LobbyDetail, 'code' | 'name' | 'format' | 'phase' | 'host_id' | 'captains' | 'teams' | 'pool'> {
  return {
    map_pool: [...state.mapPool],
    votes: voteCounts(state),
    turn: draftTurn(state),
    ready_check_deadline: isoOrNull(state.readyCheckDeadline),
    region: state.region,
    reservation_id: state.reservationId,
    match_id: state.matchId,
    score_red: state.scoreRed,
    score_blu: state.scoreBlu,
    started_at: isoOrNull(state.startedAt),
    ended_at: isoOrNull(state.endedAt),
    created_at: iso(state.createdAt),
    version: state.version,
  };
}

/** The list entry; `players` counts pool and seated. */
export function lobbySummary(state: LobbyState): LobbySummary {
  const slotsFilled = TEAMS.reduce((n, team) => n + filledCount(state, team), 0);
  return {
    code: state.code,
    name: state.name,
    format: state.format,
    phase: state.phase,
    host_id: state.hostId,
    players: state.pool.length + slotsFilled,
    slots_filled: slotsFilled,
    slots_total: state.teams.red.length + state.teams.blu.length,
    map_pool: [...state.mapPool],
    region: state.region,
    created_at: iso(state.createdAt),
  };
}
