import * as v from 'valibot';
import { IsoDateTime } from './common';

export const Plan = v.picklist(['3m', '6m', '12m'], 'plan must be 3m, 6m or 12m');

export const PremiumStatus = v.object({
  active: v.boolean(),
  /** The plan of the grant running now; null when not premium. */
  plan: v.nullable(Plan),
  /** When premium ends, counting grants already queued after the current one. */
  expires_at: v.nullable(IsoDateTime),
  /** Where the running grant came from: "paypal:<order id>", "gift:<code>", ... */
  source: v.nullable(v.string()),
});
export type PremiumStatus = v.InferOutput<typeof PremiumStatus>;

export const PremiumCreateOrderBody = v.object({
  plan: Plan,
  /** Buys this many gift codes of the plan instead of premium for the caller. */
  gift_quantity: v.optional(v.pipe(v.number(), v.integer('gift_quantity must be an integer'), v.minValue(1), v.maxValue(20))),
});

export const CreateOrderResponse = v.object({
  order_id: v.string(),
  /** Where the buyer approves the payment at PayPal. */
  approval_url: v.pipe(v.string(), v.url()),
});
export type CreateOrderResponse = v.InferOutput<typeof CreateOrderResponse>;

export const PayPalCaptureBody = v.object({ order_id: v.pipe(v.string(), v.regex(/^[A-Z0-9]{1,36}$/, 'order_id must be a PayPal order id')) });

export const PremiumHistoryItem = v.object({
  plan: Plan,
  source: v.string(),
  granted_at: IsoDateTime,
  expires_at: v.nullable(IsoDateTime),
});
export type PremiumHistoryItem = v.InferOutput<typeof PremiumHistoryItem>;

export const GiftCode = v.object({
  code: v.string(),
  plan: Plan,
  status: v.picklist(['active', 'redeemed', 'revoked', 'expired']),
  created_at: IsoDateTime,
  expires_at: IsoDateTime,
  redeemed_by: v.nullable(v.pipe(v.number(), v.integer())),
  redeemed_at: v.nullable(IsoDateTime),
});
export type GiftCode = v.InferOutput<typeof GiftCode>;

/** The format (`^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$`) is checked after the login check, so anonymous calls are 401 first. */
export const RedeemGiftCodeBody = v.object({
  code: v.pipe(v.string(), v.description('Four groups of four from A-Z and 0-9: ^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$ (400 otherwise)')),
});

/** PayPal's webhook delivery: the event is read in full by the verification, only these fields by us. */
export const PayPalWebhookBody = v.looseObject({ id: v.string(), event_type: v.string() });
