import type { UserPublic } from '../../../schema/user';
import { isoTime as iso } from '../iso-time';
import { draftTurn } from './draft-turn';
import { filledCount, isReady } from './lobby-membership';
import { memberKey, TEAMS, type LobbyState, type Slot } from './lobby-state';
import type { LobbyDetail, LobbySlot, LobbySummary, LobbyVotes } from './lobby-wire';

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

/** Profiles are stored on join, so the fallback only guards a hand-edited document. */
export function profileOf(state: LobbyState, userId: number): UserPublic {
  return (
    state.profiles[memberKey(userId)] ?? {
      id: userId, platform_id: '', username: `user ${userId}`, avatar_url: null, elo: 0, name_color: null, profile_frame: null,
    }
  );
}

export function voteCounts(state: LobbyState): LobbyVotes {
  // fromEntries, not assignment: a map named like Object.prototype's own keys stays a plain key.
  const counts: LobbyVotes = Object.fromEntries(state.mapPool.map((map) => [map, 0]));
  // The voters' ids are index-like keys, which for-in turns into strings one by one: the values alone are wanted.
  for (const map of Object.values(state.votes)) if (Object.hasOwn(counts, map)) counts[map] += 1;
  return counts;
}

export const myVote = (state: LobbyState, userId: number): string | null => state.votes[memberKey(userId)] ?? null;

/** The ready flag a slot's view shows at `now`: an empty slot is never ready. */
export const slotReady = (slot: Slot, now: number): boolean => slot.userId !== null && isReady(slot, now);

/**
 * One seat as the teams' view shows it: made of the slot, its occupant's profile and `slotReady`
 * alone (LobbyUpdateRenderer keeps a slot's JSON while those three stay the same).
 */
export function slotView(state: LobbyState, slot: Slot, now: number): LobbySlot {
  const ready = slotReady(slot, now);
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
  const detail: Record<string, unknown> = {};
  for (const name in DETAIL_HEAD) detail[name] = DETAIL_HEAD[name as HeadName].value(state);
  detail.teams = teamsView(state, now);
  detail.pool = poolView(state);
  for (const name in DETAIL_TAIL) detail[name] = DETAIL_TAIL[name as TailName].value(state);
  return detail as LobbyDetail;
}

/*
 * A detail in its three kinds of part, in the wire's order: the head fields, the teams and the
 * pool, the tail fields. Each head and tail field names the state parts it is made of, so that a
 * renderer may keep its JSON while those parts stay the same objects or values (the rules share
 * every part a command left alone with the state before): a vote then serializes `votes` and
 * `version` alone. The teams and the pool, the bulk of a lobby's bytes, are kept by identity too
 * (teamsView also depends on the time: see readyChangesAt). See LobbyUpdateRenderer.
 */

/** One field: the state parts it is made of (every one: a part left out would leave the field stale), and its value. */
export interface DetailField<T> {
  from: readonly (keyof LobbyState)[];
  value(state: LobbyState): T;
}

type HeadName = 'code' | 'name' | 'format' | 'phase' | 'host_id' | 'captains';
type TailName = Exclude<keyof LobbyDetail, HeadName | 'teams' | 'pool'>;
type Fields<K extends keyof LobbyDetail> = { readonly [N in K]: DetailField<LobbyDetail[N]> };

export const DETAIL_HEAD: Fields<HeadName> = {
  code: { from: ['code'], value: (s) => s.code },
  name: { from: ['name'], value: (s) => s.name },
  format: { from: ['format'], value: (s) => s.format },
  phase: { from: ['phase'], value: (s) => s.phase },
  host_id: { from: ['hostId'], value: (s) => s.hostId },
  captains: { from: ['captains'], value: (s) => ({ red: s.captains.red, blu: s.captains.blu }) },
};

export const DETAIL_TAIL: Fields<TailName> = {
  map_pool: { from: ['mapPool'], value: (s) => [...s.mapPool] },
  votes: { from: ['votes', 'mapPool'], value: voteCounts },
  turn: { from: ['phase', 'format', 'teams', 'picks'], value: draftTurn },
  ready_check_deadline: { from: ['readyCheckDeadline'], value: (s) => isoOrNull(s.readyCheckDeadline) },
  region: { from: ['region'], value: (s) => s.region },
  reservation_id: { from: ['reservationId'], value: (s) => s.reservationId },
  match_id: { from: ['matchId'], value: (s) => s.matchId },
  score_red: { from: ['scoreRed'], value: (s) => s.scoreRed },
  score_blu: { from: ['scoreBlu'], value: (s) => s.scoreBlu },
  started_at: { from: ['startedAt'], value: (s) => isoOrNull(s.startedAt) },
  ended_at: { from: ['endedAt'], value: (s) => isoOrNull(s.endedAt) },
  created_at: { from: ['createdAt'], value: (s) => iso(s.createdAt) },
  version: { from: ['version'], value: (s) => s.version },
};

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
