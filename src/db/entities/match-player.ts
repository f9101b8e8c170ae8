import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Match } from './match';
import { User } from './user';

/** One player's line in a match, with the rating before and after it. won is null for a draw. */
export const MatchPlayer = defineEntity({
  name: 'MatchPlayer',
  tableName: 'match_players',
  properties: {
    id: p.integer().primary(),
    // The (match_id, user_id) unique index also serves lookups by match.
    match: () => p.manyToOne(Match).mapToPk().deleteRule('cascade'),
    user: () => p.manyToOne(User).mapToPk().index('match_players_user_id_index'),
    team: p.enum(['red', 'blu'] as const),
    class: p.string().length(16),
    eloBefore: p.integer(),
    eloAfter: p.integer(),
    won: p.boolean().nullable(),
  },
  uniques: [{ name: 'match_players_match_id_user_id_unique', properties: ['match', 'user'] }],
});
export type MatchPlayerEntity = InferEntity<typeof MatchPlayer>;
