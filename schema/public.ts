import * as v from 'valibot';
import { clampedQueryInt, IsoDateTime } from './common';
import { UserPublic } from './user';

export const GlobalStats = v.object({
  total_users: v.number(),
  total_matches: v.number(),
  matches_today: v.number(),
  active_lobbies: v.number(),
  players_in_lobbies: v.number(),
  online_users: v.number(),
});
export type GlobalStats = v.InferOutput<typeof GlobalStats>;

export const SummaryBody = v.object({ stats: GlobalStats });

export const LeaderRow = v.object({
  rank: v.number(),
  user: UserPublic,
  elo: v.number(),
  matches_played: v.number(),
  wins: v.number(),
  losses: v.number(),
});
export type LeaderRow = v.InferOutput<typeof LeaderRow>;

export const MatchPlayer = v.object({
  user: UserPublic,
  team: v.picklist(['red', 'blu']),
  class: v.string(),
  elo_before: v.number(),
  elo_after: v.number(),
  elo_change: v.number(),
  won: v.nullable(v.boolean()),
});
export type MatchPlayer = v.InferOutput<typeof MatchPlayer>;

export const MatchSummary = v.object({
  id: v.number(),
  lobby_code: v.string(),
  format: v.string(),
  map: v.nullable(v.string()),
  score_red: v.number(),
  score_blu: v.number(),
  winner: v.picklist(['red', 'blu', 'draw']),
  duration_seconds: v.number(),
  started_at: IsoDateTime,
  ended_at: IsoDateTime,
  player_count: v.number(),
});
export type MatchSummary = v.InferOutput<typeof MatchSummary>;

export const MatchDetail = v.object({ ...MatchSummary.entries, players: v.array(MatchPlayer) });
export type MatchDetail = v.InferOutput<typeof MatchDetail>;

export const MatchesPage = v.object({
  matches: v.array(MatchSummary),
  total: v.number(),
  page: v.number(),
  limit: v.number(),
});
export type MatchesPage = v.InferOutput<typeof MatchesPage>;

export const MatchesQuery = v.object({ limit: clampedQueryInt(50, 1, 200), page: clampedQueryInt(1, 1, 1_000_000) });
export const ChangelogQuery = v.object({ limit: clampedQueryInt(20, 1, 100) });

export const ChangelogEntry = v.object({
  id: v.number(),
  version: v.nullable(v.string()),
  title: v.string(),
  body: v.string(),
  created_at: IsoDateTime,
});
export type ChangelogEntry = v.InferOutput<typeof ChangelogEntry>;

export const Announcement = v.object({
  id: v.nullable(v.number()),
  title: v.nullable(v.string()),
  body: v.nullable(v.string()),
  level: v.nullable(v.picklist(['info', 'warning', 'critical'])),
  starts_at: v.nullable(IsoDateTime),
  ends_at: v.nullable(IsoDateTime),
  active: v.boolean(),
});
export type Announcement = v.InferOutput<typeof Announcement>;
