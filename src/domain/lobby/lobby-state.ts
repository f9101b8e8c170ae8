import * as v from 'valibot';
import { UserPublic } from '../../../schema/user';
import { LobbyFormat, TfClass } from './formats';

/*
 * The lobby as it is stored: one JSON document per lobby. A schema (not just a type) so the
 * engine can check what it reads back from the live store.
 */

export const TEAMS = ['red', 'blu'] as const;
export const Team = v.picklist(TEAMS);
export type Team = v.InferOutput<typeof Team>;
export const otherTeam = (team: Team): Team => (team === 'red' ? 'blu' : 'red');
export const isTeam = (value: unknown): value is Team => value === 'red' || value === 'blu';

export const LOBBY_PHASES = ['gathering', 'drafting', 'ready_check', 'live', 'ended', 'cancelled'] as const;
export const LobbyPhase = v.picklist(LOBBY_PHASES);
export type LobbyPhase = v.InferOutput<typeof LobbyPhase>;

/** Phases after which a lobby accepts no further change (except the engine recording the match id). */
export const isClosed = (phase: LobbyPhase): boolean => phase === 'ended' || phase === 'cancelled';

const Int = v.pipe(v.number(), v.integer());
const NullableInt = v.nullable(Int);

/** `readyUntil` is when the occupant's ready flag lapses; the flag is on while now < readyUntil. */
export const Slot = v.object({
  index: Int,
  class: TfClass,
  userId: NullableInt,
  readyUntil: NullableInt,
});
export type Slot = v.InferOutput<typeof Slot>;

export const PickEntry = v.object({ team: Team, userId: Int, by: Int });
export type PickEntry = v.InferOutput<typeof PickEntry>;

export const LobbyState = v.object({
  code: v.string(),
  name: v.string(),
  format: LobbyFormat,
  phase: LobbyPhase,
  hostId: Int,
  createdAt: Int,
  region: v.nullable(v.string()),
  reservationId: NullableInt,
  captains: v.object({ red: NullableInt, blu: NullableInt }),
  teams: v.object({ red: v.array(Slot), blu: v.array(Slot) }),
  /** Free agents in join order. */
  pool: v.array(Int),
  mapPool: v.array(v.string()),
  /** memberKey(userId) -> map name. */
  votes: v.record(v.string(), v.string()),
  /** Draft history, oldest first: the last entry decides unpick and breaks turn ties. */
  picks: v.array(PickEntry),
  readyCheckDeadline: NullableInt,
  startedAt: NullableInt,
  endedAt: NullableInt,
  scoreRed: NullableInt,
  scoreBlu: NullableInt,
  matchId: NullableInt,
  /** memberKey(userId) -> profile: everyone who ever joined, so a view needs no database read. */
  profiles: v.record(v.string(), UserPublic),
  /** Grows by exactly one per successful changing command. */
  version: Int,
});
export type LobbyState = v.InferOutput<typeof LobbyState>;

/**
 * The key of a member's entry in `votes` and `profiles`: the user id after a letter. A bare id is
 * an array index to V8: a dozen ids in the hundreds make a holey array as long as the largest, and
 * past about a thousand a sparse (dictionary) store. Copying, walking and serializing such a record
 * cost three to five times as much, and each Object.values of the votes allocated 2 KB
 * (docs/benchmarks.md, round 33).
 */
export const memberKey = (userId: number): string => `u${userId}`;

/** A lobby stored before member keys (bare user ids in `votes` and `profiles`), keyed as the rules read it now. */
export function withMemberKeys(state: LobbyState): LobbyState {
  const votes = rekeyed(state.votes);
  const profiles = rekeyed(state.profiles);
  return votes === state.votes && profiles === state.profiles ? state : { ...state, votes, profiles };
}

function keyedByBareIds(record: Record<string, unknown>): boolean {
  for (const key in record) return key !== '' && key[0] >= '0' && key[0] <= '9';
  return false;
}

/** The record keyed by member, or the very record when it is already (or empty). */
function rekeyed<T>(record: Record<string, T>): Record<string, T> {
  if (!keyedByBareIds(record)) return record;
  const out: Record<string, T> = {};
  for (const key in record) out[memberKey(Number(key))] = record[key];
  return out;
}

/**
 * A shallow copy of a lobby, built by one literal with its fields in one order: every copy has
 * the same hidden class whatever its source's (a store read, a spread, a rule's copy), so the code
 * that reads lobbies stays monomorphic. A spread of the states in use, which had seven hidden
 * classes, took V8's slow generic clone on every command (docs/benchmarks.md, round 37).
 */
export function copyLobbyState(s: LobbyState): LobbyState {
  return {
    code: s.code,
    name: s.name,
    format: s.format,
    phase: s.phase,
    hostId: s.hostId,
    createdAt: s.createdAt,
    region: s.region,
    reservationId: s.reservationId,
    captains: s.captains,
    teams: s.teams,
    pool: s.pool,
    mapPool: s.mapPool,
    votes: s.votes,
    picks: s.picks,
    readyCheckDeadline: s.readyCheckDeadline,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
    scoreRed: s.scoreRed,
    scoreBlu: s.scoreBlu,
    matchId: s.matchId,
    profiles: s.profiles,
    version: s.version,
  };
}
