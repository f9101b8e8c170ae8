import * as v from 'valibot';
import { IsoDateTime } from './common';
import { UserPublic } from './user';

export const LobbyFormat = v.picklist(['6v6', '9v9', '4v4', 'ultiduo']);
export const LobbyPhase = v.picklist(['gathering', 'drafting', 'ready_check', 'live', 'ended', 'cancelled']);
export const Team = v.picklist(['red', 'blu'], 'team must be "red" or "blu"');
export const TfClass = v.picklist(
  ['scout', 'soldier', 'pyro', 'demoman', 'heavy', 'engineer', 'medic', 'sniper', 'spy'],
  'class must be one of scout, soldier, pyro, demoman, heavy, engineer, medic, sniper, spy',
);

export const LobbySlot = v.object({
  index: v.number(),
  class: TfClass,
  user: v.nullable(UserPublic),
  ready: v.boolean(),
  ready_until: v.nullable(IsoDateTime),
});
export type LobbySlot = v.InferOutput<typeof LobbySlot>;

/** Map name -> number of votes; every map of the lobby's pool is present, zeros included. */
export const LobbyVotes = v.record(v.string(), v.number());
export type LobbyVotes = v.InferOutput<typeof LobbyVotes>;

export const LobbyDetail = v.object({
  code: v.string(),
  name: v.string(),
  format: LobbyFormat,
  phase: LobbyPhase,
  host_id: v.number(),
  captains: v.object({ red: v.nullable(v.number()), blu: v.nullable(v.number()) }),
  teams: v.object({ red: v.array(LobbySlot), blu: v.array(LobbySlot) }),
  pool: v.array(UserPublic),
  map_pool: v.array(v.string()),
  votes: LobbyVotes,
  /** Whose draft pick it is; null outside drafting. */
  turn: v.nullable(Team),
  ready_check_deadline: v.nullable(IsoDateTime),
  region: v.nullable(v.string()),
  reservation_id: v.nullable(v.number()),
  match_id: v.nullable(v.number()),
  score_red: v.nullable(v.number()),
  score_blu: v.nullable(v.number()),
  started_at: v.nullable(IsoDateTime),
  ended_at: v.nullable(IsoDateTime),
  created_at: IsoDateTime,
  version: v.number(),
});
export type LobbyDetail = v.InferOutput<typeof LobbyDetail>;

export const LobbySummary = v.object({
  code: v.string(),
  name: v.string(),
  format: LobbyFormat,
  phase: LobbyPhase,
  host_id: v.number(),
  players: v.number(),
  slots_filled: v.number(),
  slots_total: v.number(),
  map_pool: v.array(v.string()),
  region: v.nullable(v.string()),
  created_at: IsoDateTime,
});
export type LobbySummary = v.InferOutput<typeof LobbySummary>;

export const LobbyChatMessage = v.object({
  id: v.number(),
  user: UserPublic,
  message: v.string(),
  created_at: IsoDateTime,
});
export type LobbyChatMessage = v.InferOutput<typeof LobbyChatMessage>;
