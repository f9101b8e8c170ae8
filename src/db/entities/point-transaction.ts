import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/**
 * One change of a balance, append-only. source_key names what caused it (a match and player, a
 * redemption, an award), so the same cause can never be booked twice.
 */
export const PointTransaction = defineEntity({
  name: 'PointTransaction',
  tableName: 'point_transactions',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).mapToPk(),
    amount: p.integer(),
    kind: p.enum(['match', 'redeem', 'custom_avatar', 'admin_award', 'cup_entry', 'cup_refund', 'cup_prize'] as const),
    reason: p.string().length(200),
    balanceAfter: p.integer(),
    actor: () => p.manyToOne(User).mapToPk().nullable().deleteRule('set null'),
    sourceKey: p.string().length(100).unique('point_transactions_source_key_unique'),
    createdAt: p.datetime().defaultRaw('now()'),
  },
  indexes: [{ name: 'point_transactions_user_id_id_index', properties: ['user', 'id'] }],
  checks: [
    { name: 'point_transactions_amount_check', expression: 'amount <> 0' },
    { name: 'point_transactions_balance_after_check', expression: 'balance_after >= 0' },
  ],
});
export type PointTransactionEntity = InferEntity<typeof PointTransaction>;
