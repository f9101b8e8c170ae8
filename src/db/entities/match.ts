import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A finished match. lobby_code is unique: reporting the same lobby twice yields the first match. */
export const Match = defineEntity({
  name: 'Match',
  tableName: 'matches',
  properties: {
    id: p.integer().primary(),
    lobbyCode: p.string().length(16).unique('matches_lobby_code_unique'),
    format: p.string().length(16),
    map: p.string().length(64).nullable(),
    scoreRed: p.integer(),
    scoreBlu: p.integer(),
    winner: p.enum(['red', 'blu', 'draw'] as const),
    durationSeconds: p.integer(),
    startedAt: p.datetime(),
    endedAt: p.datetime().index('matches_ended_at_index'),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type MatchEntity = InferEntity<typeof Match>;
