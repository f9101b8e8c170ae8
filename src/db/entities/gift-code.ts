import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { PremiumOrder } from './premium-order';
import { User } from './user';

/** A bought gift code. "expired" is never stored: an active code past expires_at reads as expired. */
export const GiftCode = defineEntity({
  name: 'GiftCode',
  tableName: 'gift_codes',
  properties: {
    code: p.string().length(19).primary(),
    order: () => p.manyToOne(PremiumOrder).mapToPk().index('gift_codes_order_id_index'),
    buyer: () => p.manyToOne(User).mapToPk().index('gift_codes_buyer_id_index'),
    plan: p.enum(['3m', '6m', '12m'] as const),
    status: p.enum(['active', 'redeemed', 'revoked'] as const),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    redeemedBy: () => p.manyToOne(User).mapToPk().nullable().index('gift_codes_redeemed_by_id_index'),
    redeemedAt: p.datetime().nullable(),
  },
});
export type GiftCodeEntity = InferEntity<typeof GiftCode>;
