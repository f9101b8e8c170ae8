import * as v from 'valibot';
import { defineRoute, tagAccess } from '../route-contract';
import { CupCaptureBody, CupIdParams, CupListQuery, CupPage, CupPayoutParams, CupRefundView, CupView, PayoutPaidBody, PayoutView } from '../cups';
import { TournamentEntryView } from '../tournaments';

const tag = 'Cups';
const { admin, anyone, session } = tagAccess(tag);

/** Cups: tournaments with an entry fee (created, entered and cancelled through the Tournaments routes). */
export const cupsRoutes = {
  list: defineRoute({
    operationId: 'listCups', method: 'get', path: '/api/cups', ...anyone, query: CupListQuery,
    summary: 'Cups (tournaments with an entry fee), soonest start first',
    description: 'Each with its prize pool and payouts; a tournament without an entry fee is not listed. page is 1-based (default 1), limit default 20, at most 100; a value out of range (page 0, limit 101, not an integer) is 400.',
    success: { status: 200, schema: CupPage }, errors: [400],
  }),
  get: defineRoute({
    operationId: 'getCup', method: 'get', path: '/api/cups/:id', ...anyone, params: CupIdParams,
    summary: 'One cup: the tournament, its prize pool and payouts',
    description: 'prize_pool = paid entries x fee x (100 - house_percent)%, rounded down (the rounding stays with the house). A tournament without a fee, or unknown: 404.',
    success: { status: 200, schema: CupView }, errors: [404],
  }),
  capture: defineRoute({
    operationId: 'captureCupEntry', method: 'post', path: '/api/cups/:id/entries/capture', ...session, params: CupIdParams, body: CupCaptureBody,
    summary: 'Capture a paid entry order: the team is entered',
    description: 'After the buyer approved the order at PayPal. Not approved yet: 402; another user\'s order: 403; capturing again (or concurrently): the same entry. When the team can no longer enter (the cup filled up, signups closed) the payment is refunded and the answer is 409.',
    bodyExample: { order_id: '5O190127TN364715T' },
    success: { status: 201, schema: TournamentEntryView }, errors: [400, 401, 402, 403, 404, 409, 502, 503],
  }),
  payouts: defineRoute({
    operationId: 'payCupPrizes', method: 'post', path: '/api/admin/cups/:id/payouts', ...admin, params: CupIdParams,
    summary: 'Compute and pay the prizes of a completed cup',
    description: 'By final rank (teams tied at a rank share the prizes of the places they take). Points prizes are credited to the team\'s final roster in equal parts, the remainder to the leader, as ledger rows; money prizes are recorded pending for an operator. One payout per cup and rank: calling again pays nothing twice and answers the same payouts. Before completion: 409.',
    success: { status: 200, schema: v.array(PayoutView) }, errors: [401, 403, 404, 409],
  }),
  payoutPaid: defineRoute({
    operationId: 'markCupPayoutPaid', method: 'post', path: '/api/admin/cups/:id/payouts/:payout/paid', ...admin, params: CupPayoutParams, body: PayoutPaidBody,
    summary: 'Mark a money prize paid, with the operator\'s reference',
    description: 'Again with the same reference: the same answer; already paid otherwise (points prizes are paid at once): 409.',
    bodyExample: { reference: 'PayPal payout 7XK1234' },
    success: { status: 200, schema: PayoutView }, errors: [400, 401, 403, 404, 409],
  }),
  refunds: defineRoute({
    operationId: 'listCupRefunds', method: 'get', path: '/api/admin/cups/:id/refunds', ...admin, params: CupIdParams,
    summary: 'A cup\'s PayPal refunds, failed ones first',
    description: 'Every money refund with its attempts, PayPal\'s refund id once refunded, and the last error of a failed one; a failed refund is retried by the refund worker until PayPal refunds it.',
    success: { status: 200, schema: v.array(CupRefundView) }, errors: [401, 403, 404],
  }),
};
