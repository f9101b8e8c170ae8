import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Team } from './team';
import { User } from './user';

/** A tournament row (migration 0010); the repository reads and writes it with SQL under a row lock. */
export const Tournament = defineEntity({
  name: 'Tournament',
  tableName: 'tournaments',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(64),
    format: p.text(),
    kind: p.enum(['single_elimination', 'double_elimination', 'round_robin', 'swiss'] as const),
    status: p.enum(['signups', 'running', 'completed', 'cancelled'] as const).default('signups'),
    maxTeams: p.integer(),
    bestOf: p.integer().default(1),
    swissRounds: p.integer().nullable(),
    startsAt: p.datetime(),
    checkInMinutes: p.integer().default(0),
    rosterLocked: p.boolean().default(true),
    entryFee: p.json().nullable(),
    prizes: p.json().nullable(),
    housePercent: p.integer().nullable(),
    version: p.integer().default(1),
    createdBy: () => p.manyToOne(User).mapToPk().nullable().deleteRule('set null'),
    createdAt: p.datetime().defaultRaw('now()'),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
    cancelledAt: p.datetime().nullable(),
  },
  indexes: [{ name: 'tournaments_status_index', properties: ['status', 'startsAt'] }],
  checks: [
    { name: 'tournaments_max_teams_check', expression: 'max_teams >= 2 and max_teams <= 256' },
    { name: 'tournaments_best_of_check', expression: '"best_of" in (1, 3, 5)' },
    { name: 'tournaments_check_in_minutes_check', expression: '"check_in_minutes" >= 0' },
  ],
});
export type TournamentEntity = InferEntity<typeof Tournament>;

/** A team's entry in a tournament: its seed, check-in and final rank; a withdrawn one stays as history. */
export const TournamentEntry = defineEntity({
  name: 'TournamentEntry',
  tableName: 'tournament_entries',
  properties: {
    id: p.integer().primary(),
    tournament: () => p.manyToOne(Tournament).mapToPk().deleteRule('cascade'),
    team: () => p.manyToOne(Team).mapToPk().index('tournament_entries_team_id_index'),
    status: p.enum(['entered', 'withdrawn', 'dropped', 'eliminated', 'active'] as const).default('entered'),
    seed: p.integer().nullable(),
    checkedIn: p.boolean().default(false),
    finalRank: p.integer().nullable(),
    enteredBy: () => p.manyToOne(User).mapToPk().nullable().deleteRule('set null'),
    enteredAt: p.datetime().defaultRaw('now()'),
    leftAt: p.datetime().nullable(),
  },
  uniques: [
    {
      name: 'tournament_entries_live_unique',
      expression: `create unique index "tournament_entries_live_unique" on "tournament_entries" ("tournament_id", "team_id") where "status" <> 'withdrawn'`,
    },
  ],
});
export type TournamentEntryEntity = InferEntity<typeof TournamentEntry>;

/** One bracket match; `position` keeps the order in which sources precede the matches they feed. */
export const TournamentMatch = defineEntity({
  name: 'TournamentMatch',
  tableName: 'tournament_matches',
  properties: {
    id: p.integer().primary(),
    tournament: () => p.manyToOne(Tournament).mapToPk().deleteRule('cascade'),
    key: p.string().length(16),
    position: p.integer(),
    stage: p.text(),
    round: p.integer(),
    number: p.integer(),
    homeSource: p.string().length(24).nullable(),
    awaySource: p.string().length(24).nullable(),
    homeTeamId: p.integer().nullable(),
    awayTeamId: p.integer().nullable(),
    status: p.enum(['locked', 'waiting', 'ready', 'reported', 'confirmed', 'disputed', 'bye'] as const),
    flow: p.enum(['open', 'reported', 'disputed', 'confirmed'] as const).default('open'),
    homeScore: p.integer().nullable(),
    awayScore: p.integer().nullable(),
    forfeit: p.enum(['home', 'away', 'both'] as const).nullable(),
    winnerTeamId: p.integer().nullable(),
    reportedByTeamId: p.integer().nullable(),
    disputeReason: p.string().length(500).nullable(),
    lobbyCode: p.string().length(16).nullable(),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
  uniques: [{ name: 'tournament_matches_key_unique', properties: ['tournament', 'key'] }],
  indexes: [{ name: 'tournament_matches_tournament_id_index', properties: ['tournament', 'position'] }],
});
export type TournamentMatchEntity = InferEntity<typeof TournamentMatch>;
