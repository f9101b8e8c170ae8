import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/**
 * A user's points, kept in step with the ledger in the same statement as every ledger row. The
 * checks make a negative balance, or one that is not earned minus spent, impossible.
 */
export const PointBalance = defineEntity({
  name: 'PointBalance',
  tableName: 'point_balances',
  properties: {
    user: () => p.manyToOne(User).mapToPk().primary(),
    balance: p.integer().default(0).index('point_balances_balance_index'),
    lifetimeEarned: p.integer().default(0),
    lifetimeSpent: p.integer().default(0),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
  checks: [
    { name: 'point_balances_balance_check', expression: 'balance >= 0' },
    {
      name: 'point_balances_lifetime_check',
      expression: 'lifetime_earned >= 0 and lifetime_spent >= 0 and balance = lifetime_earned - lifetime_spent',
    },
  ],
});
export type PointBalanceEntity = InferEntity<typeof PointBalance>;
