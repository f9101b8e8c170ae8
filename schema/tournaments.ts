import * as v from 'valibot';
import { IntegerParam, IsoDateTime } from './common';
import { pageOf, PageQuery } from './paging';
import { LobbyFormat } from './lobby';

export const TournamentKind = v.picklist(['single_elimination', 'double_elimination', 'round_robin', 'swiss']);
export const TournamentStatus = v.picklist(['signups', 'check_in', 'running', 'completed', 'cancelled']);
export const EntryStatus = v.picklist(['entered', 'withdrawn', 'dropped', 'eliminated', 'active']);
export const MatchStatus = v.picklist(['locked', 'waiting', 'ready', 'reported', 'confirmed', 'disputed', 'bye']);

const Name = v.pipe(v.string(), v.trim(), v.minLength(3, 'must be 3-64 characters'), v.maxLength(64, 'must be 3-64 characters'));
const MaxTeams = v.pipe(v.number(), v.integer('must be an integer'), v.minValue(2, 'must be 2-256'), v.maxValue(256, 'must be 2-256'));
const BestOf = v.picklist([1, 3, 5]);
const SwissRounds = v.pipe(v.number(), v.integer('must be an integer'), v.minValue(1, 'must be 1-20'), v.maxValue(20, 'must be 1-20'));
const CheckInMinutes = v.pipe(v.number(), v.integer('must be an integer'), v.minValue(0, 'must be 0-1440'), v.maxValue(1440, 'must be 0-1440'));
const Score = v.pipe(v.number(), v.integer('must be an integer'), v.minValue(0, 'must be 0-99'), v.maxValue(99, 'must be 0-99'));

const WholeNumber = v.pipe(v.number(), v.integer('must be an integer'));

/** A cup's fee: "points", or the premium currency's minor unit (cents). */
export const EntryFeeBody = v.object({
  amount: v.pipe(WholeNumber, v.minValue(1, 'must be at least 1')),
  /** Points unless said otherwise: paid games of skill need PayPal's pre-approval, so leagues run points cups. */
  currency: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(8)), 'points'),
});
export const PrizeBody = v.object({
  rank: v.pipe(WholeNumber, v.minValue(1, 'must be at least 1'), v.maxValue(256, 'must be at most 256')),
  percent: v.pipe(WholeNumber, v.minValue(1, 'must be 1-100'), v.maxValue(100, 'must be 1-100')),
});
const HousePercent = v.pipe(WholeNumber, v.minValue(0, 'must be 0-50'), v.maxValue(50, 'must be 0-50'));

/** What makes a tournament a cup; fixed at creation (a fee paid under other terms is never changed after). */
const CupFields = {
  entry_fee: v.optional(v.nullable(EntryFeeBody)),
  prizes: v.optional(v.pipe(v.array(PrizeBody), v.maxLength(256))),
  house_percent: v.optional(HousePercent),
};

const SettingsFields = {
  name: Name,
  format: LobbyFormat,
  kind: TournamentKind,
  max_teams: MaxTeams,
  best_of: v.optional(BestOf),
  swiss_rounds: v.optional(SwissRounds),
  starts_at: IsoDateTime,
  check_in_minutes: v.optional(CheckInMinutes),
  roster_locked: v.optional(v.boolean()),
};

export const TournamentCreateBody = v.object({ ...SettingsFields, ...CupFields });
export type TournamentCreateBody = v.InferOutput<typeof TournamentCreateBody>;

export const TournamentPatchBody = v.partial(v.object(SettingsFields));
export type TournamentPatchBody = v.InferOutput<typeof TournamentPatchBody>;

export const TeamSummaryView = v.object({
  id: v.number(),
  name: v.string(),
  tag: v.string(),
  leader_id: v.number(),
  member_count: v.number(),
});

export const TournamentEntryView = v.object({
  team: TeamSummaryView,
  seed: v.nullable(v.number()),
  checked_in: v.boolean(),
  status: EntryStatus,
  final_rank: v.nullable(v.number()),
});

export const EntryFee = v.object({ amount: v.number(), currency: v.string() });
export const Prize = v.object({ rank: v.number(), percent: v.number() });

export const TournamentView = v.object({
  id: v.number(),
  name: v.string(),
  format: LobbyFormat,
  kind: TournamentKind,
  status: TournamentStatus,
  max_teams: v.number(),
  best_of: v.number(),
  swiss_rounds: v.nullable(v.number()),
  starts_at: v.string(),
  check_in_minutes: v.number(),
  roster_locked: v.boolean(),
  entries: v.array(TournamentEntryView),
  entry_fee: v.nullable(EntryFee),
  /** A cup's prizes by rank and the house's share (absent for a plain tournament). */
  prizes: v.optional(v.array(Prize)),
  house_percent: v.optional(v.number()),
  created_at: v.string(),
  version: v.number(),
});
export type TournamentView = v.InferOutput<typeof TournamentView>;

export const TournamentListQuery = v.object({ status: v.optional(TournamentStatus), ...PageQuery });

export const TournamentPage = pageOf('tournaments', TournamentView);

const Side = v.object({ team_id: v.nullable(v.number()), score: v.nullable(v.number()) });

export const TournamentMatchView = v.object({
  id: v.number(),
  round: v.number(),
  number: v.number(),
  home: Side,
  away: Side,
  status: MatchStatus,
  winner_team_id: v.nullable(v.number()),
  reported_by_team_id: v.nullable(v.number()),
  lobby_code: v.optional(v.nullable(v.string())),
});
export type TournamentMatchView = v.InferOutput<typeof TournamentMatchView>;

export const BracketView = v.object({
  stages: v.array(
    v.object({
      id: v.string(),
      kind: v.string(),
      rounds: v.array(v.object({ number: v.number(), group: v.optional(v.string()), matches: v.array(TournamentMatchView) })),
    }),
  ),
});
export type BracketView = v.InferOutput<typeof BracketView>;

export const StandingView = v.object({
  rank: v.number(),
  team_id: v.number(),
  name: v.string(),
  wins: v.number(),
  losses: v.number(),
  draws: v.number(),
  points: v.number(),
  score_diff: v.number(),
  buchholz: v.optional(v.number()),
});

export const TournamentIdParams = v.object({ id: IntegerParam });
export const TournamentTeamParams = v.object({ id: IntegerParam, team: IntegerParam });
export const TournamentMatchParams = v.object({ id: IntegerParam, match: IntegerParam });

export const TeamIdBody = v.object({ team_id: v.pipe(v.number(), v.integer('must be an integer'), v.minValue(1, 'must be positive')) });
export const ReportBody = v.object({ home_score: Score, away_score: Score });
export const DisputeBody = v.object({ reason: v.pipe(v.string(), v.trim(), v.minLength(1, 'must be 1-500 characters'), v.maxLength(500, 'must be 1-500 characters')) });
export const AdminResultBody = v.object({
  home_score: Score,
  away_score: Score,
  forfeit: v.optional(v.picklist(['home', 'away', 'both'])),
  reset_dependents: v.optional(v.boolean()),
});
export const OkView = v.object({ ok: v.boolean() });
