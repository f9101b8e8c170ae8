import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { PremiumOrder } from './premium-order';
import { User } from './user';

/** A period of premium. A new grant starts where the current one ends, so periods chain. */
export const PremiumGrant = defineEntity({
  name: 'PremiumGrant',
  tableName: 'premium_grants',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).mapToPk(),
    plan: p.enum(['3m', '6m', '12m'] as const),
    source: p.string().length(64),
    grantedAt: p.datetime(),
    expiresAt: p.datetime(),
    // At most one grant per paid order: the capture route and the webhook can never both grant.
    order: () => p.manyToOne(PremiumOrder).mapToPk().nullable().unique('premium_grants_order_id_unique'),
  },
  indexes: [{ name: 'premium_grants_user_id_expires_at_index', properties: ['user', 'expiresAt'] }],
});
export type PremiumGrantEntity = InferEntity<typeof PremiumGrant>;
