import * as v from 'valibot';

/**
 * The parts of PayPal's REST JSON we read (OAuth 2.0 token, Orders v2, Notifications v1). Unknown
 * fields are ignored; what we rely on is required, so a changed answer fails loudly here.
 */

export const TokenResponse = v.object({
  access_token: v.pipe(v.string(), v.minLength(1)),
  token_type: v.string(),
  expires_in: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

export const Link = v.object({ href: v.string(), rel: v.string(), method: v.optional(v.string()) });

export const Money = v.object({ currency_code: v.string(), value: v.string() });

export const Capture = v.object({
  id: v.string(),
  status: v.string(),
  amount: v.optional(Money),
});

export const Order = v.object({
  id: v.string(),
  status: v.string(),
  links: v.optional(v.array(Link), []),
  purchase_units: v.optional(
    v.array(
      v.object({
        amount: v.optional(Money),
        payments: v.optional(v.object({ captures: v.optional(v.array(Capture), []) })),
      }),
    ),
    [],
  ),
});
export type Order = v.InferOutput<typeof Order>;

/** A refund of a capture (Payments v2): its id is what we record. */
export const Refund = v.object({ id: v.string(), status: v.string() });

/** PayPal's error body: `name` is the class, `details[].issue` the precise reason. */
export const ErrorBody = v.object({
  name: v.optional(v.string()),
  message: v.optional(v.string()),
  debug_id: v.optional(v.string()),
  details: v.optional(v.array(v.object({ issue: v.optional(v.string()), description: v.optional(v.string()) })), []),
});

export const VerifySignatureResponse = v.object({ verification_status: v.string() });

/** A PAYMENT.CAPTURE.COMPLETED event: the resource is the capture, naming its order. */
export const WebhookEvent = v.object({
  id: v.string(),
  event_type: v.string(),
  resource: v.optional(
    v.object({
      id: v.optional(v.string()),
      status: v.optional(v.string()),
      amount: v.optional(Money),
      links: v.optional(v.array(Link), []),
      supplementary_data: v.optional(v.object({ related_ids: v.optional(v.object({ order_id: v.optional(v.string()) })) })),
    }),
  ),
});
export type WebhookEvent = v.InferOutput<typeof WebhookEvent>;

/** The transmission headers PayPal signs a webhook delivery with (lower-case, as node gives them). */
export const WEBHOOK_HEADERS = {
  auth_algo: 'paypal-auth-algo',
  cert_url: 'paypal-cert-url',
  transmission_id: 'paypal-transmission-id',
  transmission_sig: 'paypal-transmission-sig',
  transmission_time: 'paypal-transmission-time',
} as const;
