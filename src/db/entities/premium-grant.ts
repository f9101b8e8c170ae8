import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
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
  },
  indexes: [{ name: 'premium_grants_user_id_expires_at_index', properties: ['user', 'expiresAt'] }],
});
export type PremiumGrantEntity = InferEntity<typeof PremiumGrant>;
