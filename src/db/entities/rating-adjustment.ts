import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/** An admin's correction of a rating; with the match rows, it makes up the user's rating history. */
export const RatingAdjustment = defineEntity({
  name: 'RatingAdjustment',
  tableName: 'rating_adjustments',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).mapToPk().index('rating_adjustments_user_id_index'),
    eloBefore: p.integer(),
    eloAfter: p.integer(),
    reason: p.text(),
    admin: () => p.manyToOne(User).mapToPk(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type RatingAdjustmentEntity = InferEntity<typeof RatingAdjustment>;
