import * as v from 'valibot';
import { UserPublic } from '../../../schema/user';
import { LobbyFormat, TfClass } from './formats';
import { LobbyPhase, Team } from './lobby-state';

/* The lobby records on the wire (snake_case). Kept here until they move to schema/. */

const Int = v.pipe(v.number(), v.integer());
const IsoTime = v.pipe(v.string(), v.isoTimestamp());

export const LobbySlot = v.object({
  index: Int,
  class: TfClass,
  user: v.nullable(UserPublic),
  ready: v.boolean(),
  ready_until: v.nullable(IsoTime),
});
export type LobbySlot = v.InferOutput<typeof LobbySlot>;

/** Map name -> number of votes; every map of the lobby's pool is present, zeros included. */
export const LobbyVotes = v.record(v.string(), Int);
export type LobbyVotes = v.InferOutput<typeof LobbyVotes>;

export const LobbyDetail = v.object({
  code: v.string(),
  name: v.string(),
  format: LobbyFormat,
  phase: LobbyPhase,
  host_id: Int,
  captains: v.object({ red: v.nullable(Int), blu: v.nullable(Int) }),
  teams: v.object({ red: v.array(LobbySlot), blu: v.array(LobbySlot) }),
  pool: v.array(UserPublic),
  map_pool: v.array(v.string()),
  votes: LobbyVotes,
  /** Whose draft pick it is; null outside drafting. */
  turn: v.nullable(Team),
  ready_check_deadline: v.nullable(IsoTime),
  region: v.nullable(v.string()),
  reservation_id: v.nullable(Int),
  match_id: v.nullable(Int),
  score_red: v.nullable(Int),
  score_blu: v.nullable(Int),
  started_at: v.nullable(IsoTime),
  ended_at: v.nullable(IsoTime),
  created_at: IsoTime,
  version: Int,
});
export type LobbyDetail = v.InferOutput<typeof LobbyDetail>;

export const LobbySummary = v.object({
  code: v.string(),
  name: v.string(),
  format: LobbyFormat,
  phase: LobbyPhase,
  host_id: Int,
  /** Pool and seated together. */
  players: Int,
  slots_filled: Int,
  slots_total: Int,
  map_pool: v.array(v.string()),
  region: v.nullable(v.string()),
  created_at: IsoTime,
});
export type LobbySummary = v.InferOutput<typeof LobbySummary>;

export const LobbyChatMessage = v.object({
  id: Int,
  user: UserPublic,
  message: v.string(),
  created_at: IsoTime,
});
export type LobbyChatMessage = v.InferOutput<typeof LobbyChatMessage>;
