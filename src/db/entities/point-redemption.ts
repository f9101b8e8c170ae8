import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { PointReward } from './point-reward';
import { User } from './user';

/** A reward a user bought, at the price paid; owning it is having this row (once per reward). */
export const PointRedemption = defineEntity({
  name: 'PointRedemption',
  tableName: 'point_redemptions',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).mapToPk(),
    reward: () => p.manyToOne(PointReward).mapToPk(),
    cost: p.integer(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
  uniques: [{ name: 'point_redemptions_user_id_reward_id_unique', properties: ['user', 'reward'] }],
});
export type PointRedemptionEntity = InferEntity<typeof PointRedemption>;
