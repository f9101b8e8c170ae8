import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/**
 * A PayPal order as we created it and, once paid, its capture: one row per order so an operator
 * can reconcile every payment with PayPal's records (order id, capture id, amount, who, when).
 * `completed_via` says which door learned of the payment first (our capture or PayPal's webhook).
 */
export const PremiumOrder = defineEntity({
  name: 'PremiumOrder',
  tableName: 'premium_orders',
  properties: {
    id: p.string().length(36).primary(),
    user: () => p.manyToOne(User).mapToPk().index('premium_orders_user_id_index'),
    kind: p.enum(['premium', 'gift'] as const),
    plan: p.enum(['3m', '6m', '12m'] as const),
    quantity: p.integer(),
    amount: p.string().length(16),
    currency: p.string().length(3),
    requestId: p.string().length(64).unique('premium_orders_request_id_unique'),
    status: p.enum(['created', 'completed'] as const),
    createdAt: p.datetime(),
    captureId: p.string().length(36).nullable().unique('premium_orders_capture_id_unique'),
    capturedAmount: p.string().length(16).nullable(),
    capturedAt: p.datetime().nullable(),
    completedVia: p.enum(['capture', 'webhook'] as const).nullable(),
  },
});
export type PremiumOrderEntity = InferEntity<typeof PremiumOrder>;
