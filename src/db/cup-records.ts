/** The rows of the cup tables (migrations 0015-0017) as the cup repository reads them, and their records. */

export type FeeStatus = 'pending_payment' | 'captured' | 'paid' | 'refunded';

export interface FeeRecord {
  id: number;
  tournamentId: number;
  teamId: number;
  payerId: number;
  currency: string;
  amount: number;
  status: FeeStatus;
  orderId: string | null;
  captureId: string | null;
}

export interface RefundRecord {
  id: number;
  feeId: number;
  tournamentId: number;
  teamId: number;
  captureId: string;
  amount: number;
  currency: string;
  status: 'pending' | 'failed' | 'refunded';
  requestId: string;
  paypalRefundId: string | null;
  paypalStatus: string | null;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
  createdAt: Date;
  refundedAt: Date | null;
}

export interface PayoutRecord {
  id: number;
  tournamentId: number;
  rank: number;
  teamId: number;
  amount: number;
  currency: string;
  status: 'pending' | 'paid';
  reference: string | null;
  paidAt: Date | null;
}

export const FEE = 'id, tournament_id, team_id, payer_id, currency, amount, status, order_id, capture_id';
export const REFUND = `r.id, r.fee_id, r.tournament_id, f.team_id, r.capture_id, r.amount, r.currency, r.status, r.request_id, r.paypal_refund_id, r.paypal_status,
  r.attempts, r.last_error, r.next_attempt_at, r.created_at, r.refunded_at`;
export const PAYOUT = 'id, tournament_id, rank, team_id, amount, currency, status, reference, paid_at';

export interface FeeRow {
  id: number;
  tournament_id: number;
  team_id: number;
  payer_id: number;
  currency: string;
  amount: number;
  status: FeeStatus;
  order_id: string | null;
  capture_id: string | null;
}

export const toFee = (row: FeeRow): FeeRecord => ({
  id: row.id, tournamentId: row.tournament_id, teamId: row.team_id, payerId: row.payer_id, currency: row.currency, amount: row.amount,
  status: row.status, orderId: row.order_id, captureId: row.capture_id,
});

export interface RefundRow {
  id: number;
  fee_id: number;
  tournament_id: number;
  team_id: number;
  capture_id: string;
  amount: number;
  currency: string;
  status: RefundRecord['status'];
  request_id: string;
  paypal_refund_id: string | null;
  paypal_status: string | null;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date | string;
  created_at: Date | string;
  refunded_at: Date | string | null;
}

export const toRefund = (row: RefundRow): RefundRecord => ({
  id: row.id, feeId: row.fee_id, tournamentId: row.tournament_id, teamId: row.team_id, captureId: row.capture_id, amount: row.amount,
  currency: row.currency, status: row.status, requestId: row.request_id, paypalRefundId: row.paypal_refund_id, paypalStatus: row.paypal_status,
  attempts: row.attempts, lastError: row.last_error, nextAttemptAt: new Date(row.next_attempt_at), createdAt: new Date(row.created_at),
  refundedAt: row.refunded_at ? new Date(row.refunded_at) : null,
});

export interface PayoutRow {
  id: number;
  tournament_id: number;
  rank: number;
  team_id: number;
  amount: number;
  currency: string;
  status: 'pending' | 'paid';
  reference: string | null;
  paid_at: Date | string | null;
}

export const toPayout = (row: PayoutRow): PayoutRecord => ({
  id: row.id, tournamentId: row.tournament_id, rank: row.rank, teamId: row.team_id, amount: row.amount, currency: row.currency,
  status: row.status, reference: row.reference, paidAt: row.paid_at ? new Date(row.paid_at) : null,
});
