import * as v from 'valibot';
import { OkBody } from '../common';
import {
  CreateOrderResponse, GiftCode, PayPalCaptureBody, PayPalWebhookBody, PremiumCreateOrderBody, PremiumHistoryItem, PremiumStatus,
  RedeemGiftCodeBody,
} from '../premium';
import { defineRoute } from '../route-contract';

const tag = 'Premium';

/** The specification's Premium table (the key routes are in keys-routes.ts), plus PayPal's webhook. */
export const premiumRoutes = {
  status: defineRoute({
    operationId: 'getPremiumStatus', method: 'get', path: '/api/premium/status', tag, auth: ['session'],
    description:
      'The logged-in caller\'s premium: whether it is active, the plan, when it ends and where it came from. 401 without a session.',
    summary: "The caller's premium: whether it is active, the running plan, when it ends and where it came from",
    success: { status: 200, schema: PremiumStatus }, errors: [401, 403],
  }),
  createOrder: defineRoute({
    operationId: 'createPremiumOrder', method: 'post', path: '/api/premium/create-order', tag, auth: ['session'],
    description:
      'Creates a PayPal order for a plan, or for gift_quantity (1 to 20) gift codes of it; the buyer approves it at approval_url, then the client captures it. 503 when payments are not configured, 502 when PayPal fails.',
    bodyExample: { plan: '6m' },
    summary: 'Creates a PayPal order for a plan (or gift_quantity gift codes of it); the buyer approves it at approval_url',
    body: PremiumCreateOrderBody, success: { status: 200, schema: CreateOrderResponse }, errors: [400, 401, 403, 502, 503],
  }),
  captureOrder: defineRoute({
    operationId: 'capturePremiumOrder', method: 'post', path: '/api/premium/capture-order', tag, auth: ['session'],
    description:
      'Captures the caller\'s approved premium order at PayPal and grants its plan, extending from the current expiry; capturing again grants nothing more. 404 for an unknown order, 403 for another user\'s, 400 for a gift-code order, 402 while the buyer has not approved it or the payment is not complete.',
    bodyExample: { order_id: '5O190127TN364715T' },
    summary: "Captures the caller's approved order and grants its plan, extending from the current expiry; a second capture grants nothing more",
    body: PayPalCaptureBody, success: { status: 200, schema: PremiumStatus }, errors: [400, 401, 402, 403, 404, 502, 503],
  }),
  history: defineRoute({
    operationId: 'getPremiumHistory', method: 'get', path: '/api/premium/history', tag, auth: ['session'],
    description:
      'Every premium grant of the caller (plan, source, when granted and when it ends), newest first. 401 without a session.',
    summary: "The caller's premium grants, newest first",
    success: { status: 200, schema: v.array(PremiumHistoryItem) }, errors: [401, 403],
  }),
  giftCodes: defineRoute({
    operationId: 'listGiftCodes', method: 'get', path: '/api/premium/gift-codes', tag, auth: ['session'],
    description:
      'The gift codes the caller bought or redeemed, newest first. 401 without a session.',
    summary: 'Gift codes the caller bought or redeemed, newest first',
    success: { status: 200, schema: v.array(GiftCode) }, errors: [401, 403],
  }),
  captureGiftCodes: defineRoute({
    operationId: 'captureGiftCodeOrder', method: 'post', path: '/api/premium/gift-codes/capture-paypal', tag, auth: ['session'],
    description:
      'Captures the caller\'s approved gift-code order at PayPal and returns its codes; capturing again returns the same codes. 404 for an unknown order, 403 for another user\'s, 400 for a premium order, 402 while the payment is not approved or complete.',
    bodyExample: { order_id: '5O190127TN364715T' },
    summary: "Captures the caller's approved gift-code order and returns its codes; a second capture returns the same codes",
    body: PayPalCaptureBody, success: { status: 200, schema: v.array(GiftCode) }, errors: [400, 401, 402, 403, 404, 502, 503],
  }),
  redeemGiftCode: defineRoute({
    operationId: 'redeemGiftCode', method: 'post', path: '/api/premium/gift-codes/redeem', tag, auth: [], optionalSession: true,
    description:
      'Redeems a gift code for the logged-in caller: its plan is granted, extending from the current expiry. 401 without a session, 400 for a malformed code, 404 for an unknown one, 410 when it is no longer active (redeemed, revoked or expired).',
    bodyExample: { code: 'ABCD-EFGH-JKLM-2345' },
    summary: "Redeems a gift code (login required): its plan is granted to the caller, extending from the current expiry",
    body: RedeemGiftCodeBody, success: { status: 200, schema: PremiumStatus }, errors: [400, 401, 404, 410],
  }),
  paypalWebhook: defineRoute({
    operationId: 'paypalWebhook', method: 'post', path: '/api/premium/paypal-webhook', tag, auth: [],
    description:
      'PayPal\'s webhook, for PayPal only: the event is verified with PayPal (400 when it is not), then a completed capture or an approved order completes an order whose buyer never came back; an order completes once. Cup entry orders are routed here too: an approved or captured one enters its team, PAYMENT.CAPTURE.REFUNDED confirms a cup refund. 503 when the webhook is not configured.',
    bodyExample: { id: 'WH-2WR32451HC0233532-67976317FL4543714', event_type: 'PAYMENT.CAPTURE.COMPLETED' },
    summary: "PayPal's webhook, verified with PayPal: PAYMENT.CAPTURE.COMPLETED and CHECKOUT.ORDER.APPROVED complete an order whose buyer never came back; an order completes once",
    body: PayPalWebhookBody, success: { status: 200, schema: OkBody }, errors: [400, 502, 503],
  }),
};
