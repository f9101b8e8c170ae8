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
    summary: "The caller's premium: whether it is active, the running plan, when it ends and where it came from",
    success: { status: 200, schema: PremiumStatus }, errors: [401, 403],
  }),
  createOrder: defineRoute({
    operationId: 'createPremiumOrder', method: 'post', path: '/api/premium/create-order', tag, auth: ['session'],
    summary: 'Creates a PayPal order for a plan (or gift_quantity gift codes of it); the buyer approves it at approval_url',
    body: PremiumCreateOrderBody, success: { status: 200, schema: CreateOrderResponse }, errors: [400, 401, 403, 502, 503],
  }),
  captureOrder: defineRoute({
    operationId: 'capturePremiumOrder', method: 'post', path: '/api/premium/capture-order', tag, auth: ['session'],
    summary: "Captures the caller's approved order and grants its plan, extending from the current expiry; a second capture grants nothing more",
    body: PayPalCaptureBody, success: { status: 200, schema: PremiumStatus }, errors: [400, 401, 402, 403, 404, 502, 503],
  }),
  history: defineRoute({
    operationId: 'getPremiumHistory', method: 'get', path: '/api/premium/history', tag, auth: ['session'],
    summary: "The caller's premium grants, newest first",
    success: { status: 200, schema: v.array(PremiumHistoryItem) }, errors: [401, 403],
  }),
  giftCodes: defineRoute({
    operationId: 'listGiftCodes', method: 'get', path: '/api/premium/gift-codes', tag, auth: ['session'],
    summary: 'Gift codes the caller bought or redeemed, newest first',
    success: { status: 200, schema: v.array(GiftCode) }, errors: [401, 403],
  }),
  captureGiftCodes: defineRoute({
    operationId: 'captureGiftCodeOrder', method: 'post', path: '/api/premium/gift-codes/capture-paypal', tag, auth: ['session'],
    summary: "Captures the caller's approved gift-code order and returns its codes; a second capture returns the same codes",
    body: PayPalCaptureBody, success: { status: 200, schema: v.array(GiftCode) }, errors: [400, 401, 402, 403, 404, 502, 503],
  }),
  redeemGiftCode: defineRoute({
    operationId: 'redeemGiftCode', method: 'post', path: '/api/premium/gift-codes/redeem', tag, auth: [], optionalSession: true,
    summary: "Redeems a gift code (login required): its plan is granted to the caller, extending from the current expiry",
    body: RedeemGiftCodeBody, success: { status: 200, schema: PremiumStatus }, errors: [400, 401, 404, 410],
  }),
  paypalWebhook: defineRoute({
    operationId: 'paypalWebhook', method: 'post', path: '/api/premium/paypal-webhook', tag, auth: [],
    summary: "PayPal's webhook, verified with PayPal: PAYMENT.CAPTURE.COMPLETED and CHECKOUT.ORDER.APPROVED complete an order whose buyer never came back; an order completes once",
    body: PayPalWebhookBody, success: { status: 200, schema: OkBody }, errors: [400, 502, 503],
  }),
};
