import * as v from 'valibot';
import { IntegerParam } from './common';
import { pageOf, PageQuery } from './paging';
import { EntryFee, TournamentView } from './tournaments';

export const PayoutView = v.object({
  id: v.number(),
  rank: v.number(),
  team_id: v.number(),
  amount: v.number(),
  currency: v.string(),
  status: v.picklist(['pending', 'paid']),
  reference: v.nullable(v.string()),
  paid_at: v.nullable(v.string()),
});
export type PayoutView = v.InferOutput<typeof PayoutView>;

export const CupView = v.object({
  ...TournamentView.entries,
  prize_pool: EntryFee,
  payouts: v.array(PayoutView),
});
export type CupView = v.InferOutput<typeof CupView>;

export const CupPage = pageOf('cups', CupView);

/** The tag areas' paging: out-of-range page or limit is a 400 naming the field. */
export const CupListQuery = v.object({ ...PageQuery });

export const CupEntryOrder = v.object({ order_id: v.string(), approval_url: v.string() });

export const CupCaptureBody = v.object({ order_id: v.pipe(v.string(), v.minLength(1, 'required'), v.maxLength(64, 'must be at most 64 characters')) });

export const PayoutPaidBody = v.object({
  reference: v.pipe(v.string(), v.trim(), v.minLength(1, 'required'), v.maxLength(200, 'must be at most 200 characters')),
});

export const CupRefundView = v.object({
  id: v.number(),
  team_id: v.number(),
  capture_id: v.string(),
  amount: v.number(),
  currency: v.string(),
  status: v.picklist(['pending', 'failed', 'refunded']),
  paypal_refund_id: v.nullable(v.string()),
  attempts: v.number(),
  last_error: v.nullable(v.string()),
  next_attempt_at: v.nullable(v.string()),
  created_at: v.string(),
  refunded_at: v.nullable(v.string()),
});

export const CupIdParams = v.object({ id: IntegerParam });
export const CupPayoutParams = v.object({ id: IntegerParam, payout: IntegerParam });
