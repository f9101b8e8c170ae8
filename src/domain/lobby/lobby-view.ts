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
  const counts: LobbyVotes = Object.fromEntries(state.mapPool.map((m) => [m, 0]));
  for (const map of Object.values(state.votes)) if (map in counts) counts[map] += 1;
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
  return {
    code: state.code,
    name: state.name,
    format: state.format,
    phase: state.phase,
    host_id: state.hostId,
    captains: { red: state.captains.red, blu: state.captains.blu },
    teams: {
      red: state.teams.red.map((s) => slotView(state, s, now)),
      blu: state.teams.blu.map((s) => slotView(state, s, now)),
    },
    pool: state.pool.map((id) => profileOf(state, id)),
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
