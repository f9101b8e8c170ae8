import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A tournament row (migration 0010); the repository reads and writes it with SQL under a row lock. */
export const Tournament = defineEntity({
  name: 'Tournament',
  tableName: 'tournaments',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(64),
    format: p.text(),
    kind: p.text(),
    status: p.text(),
    maxTeams: p.integer(),
    bestOf: p.integer(),
    swissRounds: p.integer().nullable(),
    startsAt: p.datetime(),
    checkInMinutes: p.integer(),
    rosterLocked: p.boolean(),
    entryFee: p.json().nullable(),
    version: p.integer(),
    createdById: p.integer().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
    cancelledAt: p.datetime().nullable(),
  },
});
export type TournamentEntity = InferEntity<typeof Tournament>;

/** A team's entry in a tournament: its seed, check-in and final rank. */
export const TournamentEntry = defineEntity({
  name: 'TournamentEntry',
  tableName: 'tournament_entries',
  properties: {
    id: p.integer().primary(),
    tournamentId: p.integer(),
    teamId: p.integer(),
    status: p.text(),
    seed: p.integer().nullable(),
    checkedIn: p.boolean(),
    finalRank: p.integer().nullable(),
    enteredById: p.integer().nullable(),
    enteredAt: p.datetime().defaultRaw('now()'),
    leftAt: p.datetime().nullable(),
  },
});
export type TournamentEntryEntity = InferEntity<typeof TournamentEntry>;

/** One bracket match; `position` keeps the order in which sources precede the matches they feed. */
export const TournamentMatch = defineEntity({
  name: 'TournamentMatch',
  tableName: 'tournament_matches',
  properties: {
    id: p.integer().primary(),
    tournamentId: p.integer(),
    key: p.string().length(16),
    position: p.integer(),
    stage: p.text(),
    round: p.integer(),
    number: p.integer(),
    homeSource: p.string().length(24).nullable(),
    awaySource: p.string().length(24).nullable(),
    homeTeamId: p.integer().nullable(),
    awayTeamId: p.integer().nullable(),
    status: p.text(),
    flow: p.text(),
    homeScore: p.integer().nullable(),
    awayScore: p.integer().nullable(),
    forfeit: p.text().nullable(),
    winnerTeamId: p.integer().nullable(),
    reportedByTeamId: p.integer().nullable(),
    disputeReason: p.string().length(500).nullable(),
    lobbyCode: p.string().length(16).nullable(),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export type TournamentMatchEntity = InferEntity<typeof TournamentMatch>;
