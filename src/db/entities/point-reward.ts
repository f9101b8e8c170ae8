import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A catalogue entry. An inactive reward stays listed (and owned) but can no longer be redeemed. */
export const PointReward = defineEntity({
  name: 'PointReward',
  tableName: 'point_rewards',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(64),
    kind: p.enum(['name_color', 'profile_frame'] as const),
    cost: p.integer(),
    value: p.string().length(64),
    active: p.boolean().default(true),
    createdAt: p.datetime().defaultRaw('now()'),
  },
  uniques: [{ name: 'point_rewards_kind_value_unique', properties: ['kind', 'value'] }],
  checks: [{ name: 'point_rewards_cost_check', expression: 'cost > 0' }],
});
export type PointRewardEntity = InferEntity<typeof PointReward>;
