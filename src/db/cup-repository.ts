import type { RefundStep } from '../domain/cups';
import type { EmSource, EntityManager } from './orm';
import { FEE, PAYOUT, REFUND, toFee, toPayout, toRefund, type FeeRecord, type FeeRow, type FeeStatus, type PayoutRecord, type PayoutRow, type RefundRecord, type RefundRow } from './cup-records';

/** How long PayPal keeps an order it may still capture: a pending fee older than this is not looked at again. */
const PAYPAL_ORDER_LIFETIME_MS = 3 * 24 * 3600 * 1000;

/**
 * Cup fees, refunds and payouts (migration 0015). Fee writes run inside the tournaments area's
 * transactions (the `...In` methods), under the tournament's row lock; every status change is
 * conditional on the status it leaves, so a second caller changes nothing.
 */
export class CupRepository {
  constructor(private readonly db: EmSource) {}

  em(): EntityManager {
    return this.db.em();
  }

  async insertFeeIn(em: EntityManager, fee: Omit<FeeRecord, 'id' | 'captureId'>): Promise<number> {
    const [row] = await em.execute<{ id: number }[]>(
      `insert into cup_entry_fees (tournament_id, team_id, payer_id, currency, amount, status, order_id, paid_at)
       values (?, ?, ?, ?, ?, ?, ?, case when ? = 'paid' then now() end) returning id`,
      [fee.tournamentId, fee.teamId, fee.payerId, fee.currency, fee.amount, fee.status, fee.orderId, fee.status],
    );
    return row!.id;
  }

  async feeOfOrder(orderId: string, em: EntityManager = this.db.em()): Promise<FeeRecord | null> {
    const [row] = await em.execute<FeeRow[]>(`select ${FEE} from cup_entry_fees where order_id = ?`, [orderId]);
    return row ? toFee(row) : null;
  }

  /**
   * Unsettled money fees past the grace, claimed for the sweep: `captured` ones (the money is taken,
   * the entry is not made) always, `pending_payment` ones while PayPal may still capture the order.
   * The claim pushes the next look out (the grace, doubling, at most an hour), so another instance
   * skips them and an abandoned order is looked at a few times only.
   */
  async claimUnsettledFees(graceMs: number, limit: number): Promise<FeeRecord[]> {
    const rows = await this.db.em().execute<FeeRow[]>(
      `with due as (
         select id from cup_entry_fees
         where status in ('pending_payment', 'captured') and created_at < now() - make_interval(secs => ?::float8 / 1000)
           and (next_check_at is null or next_check_at <= now())
           and (status = 'captured' or created_at > now() - make_interval(secs => ?::float8 / 1000))
         order by created_at, id limit ? for update skip locked
       )
       update cup_entry_fees f set checks = f.checks + 1,
         next_check_at = now() + make_interval(secs => least(?::float8 / 1000 * power(2, least(f.checks, 20)), 3600))
       from due where f.id = due.id returning ${FEE.split(', ').map((c) => `f.${c}`).join(', ')}`,
      [graceMs, PAYPAL_ORDER_LIFETIME_MS, limit, graceMs],
    );
    return rows.map(toFee);
  }

  /** The order was captured at PayPal: only a pending one moves (a second capture's answer changes nothing). */
  async markCaptured(orderId: string, captureId: string): Promise<void> {
    await this.db.em().execute(
      `update cup_entry_fees set status = 'captured', capture_id = ? where order_id = ? and status = 'pending_payment'`,
      [captureId, orderId],
      'run',
    );
  }

  /** The captured order pays this entry; false when it is not a captured order of this team. */
  async payCapturedIn(em: EntityManager, orderId: string, tournamentId: number, teamId: number): Promise<boolean> {
    const rows = await em.execute<{ id: number }[]>(
      `update cup_entry_fees set status = 'paid', paid_at = now()
       where order_id = ? and tournament_id = ? and team_id = ? and status = 'captured' returning id`,
      [orderId, tournamentId, teamId],
    );
    return rows.length > 0;
  }

  /** The team's paid fee, locked: the one a withdrawal or cancellation refunds. */
  async paidFeeIn(em: EntityManager, tournamentId: number, teamId: number): Promise<FeeRecord | null> {
    const [row] = await em.execute<FeeRow[]>(
      `select ${FEE} from cup_entry_fees where tournament_id = ? and team_id = ? and status = 'paid' for update`,
      [tournamentId, teamId],
    );
    return row ? toFee(row) : null;
  }

  /** Refunds a fee in `from` status; false when it is in another one by now (someone refunded it first). */
  async refundFeeIn(em: EntityManager, feeId: number, from: FeeStatus): Promise<boolean> {
    const rows = await em.execute<{ id: number }[]>(
      `update cup_entry_fees set status = 'refunded', refunded_at = now() where id = ? and status = ? returning id`,
      [feeId, from],
    );
    return rows.length > 0;
  }

  /** The PayPal refund of a captured fee, to be sent by the worker with this request id; once per fee (unique). */
  async insertRefundIn(em: EntityManager, fee: FeeRecord, requestId: string): Promise<void> {
    if (fee.captureId === null) throw new Error(`cup fee ${fee.id} has no capture to refund`);
    await em.execute(
      `insert into cup_refunds (fee_id, tournament_id, capture_id, amount, currency, request_id) values (?, ?, ?, ?, ?, ?)`,
      [fee.id, fee.tournamentId, fee.captureId, fee.amount, fee.currency, requestId],
      'run',
    );
  }

  async paidCount(tournamentId: number, em: EntityManager = this.db.em()): Promise<number> {
    const [row] = await em.execute<{ n: number }[]>(
      `select count(*)::int as n from cup_entry_fees where tournament_id = ? and status = 'paid'`,
      [tournamentId],
    );
    return row!.n;
  }

  /**
   * Claims the next refund that is due and not claimed by another instance, for `leaseMs` (longer
   * than the PayPal call can take); the claim counts the attempt.
   */
  async claimDueRefund(leaseMs: number): Promise<RefundRecord | null> {
    const rows = await this.db.em().execute<RefundRow[]>(
      `with due as (
         select id from cup_refunds
         where status <> 'refunded' and next_attempt_at <= now() and (claimed_until is null or claimed_until < now())
         order by next_attempt_at, id limit 1 for update skip locked
       )
       update cup_refunds r set claimed_until = now() + make_interval(secs => ?::float8 / 1000), attempts = r.attempts + 1
       from due, cup_entry_fees f where r.id = due.id and f.id = r.fee_id
       returning ${REFUND}`,
      [leaseMs],
    );
    return rows[0] ? toRefund(rows[0]) : null;
  }

  /** Whether any PayPal refund waits to be sent (or retried). */
  async hasQueuedRefunds(): Promise<boolean> {
    const [row] = await this.db.em().execute<{ queued: boolean }[]>(`select exists (select 1 from cup_refunds where status <> 'refunded') as queued`);
    return row!.queued;
  }

  /** What the attempt came to; `requestId`: the next attempt's, when PayPal refused this one. */
  async recordAttempt(id: number, step: RefundStep, requestId: string | null, paypalStatus: string | null): Promise<void> {
    await this.db.em().execute(
      `update cup_refunds set status = ?, paypal_refund_id = coalesce(?, paypal_refund_id), paypal_status = coalesce(?, paypal_status),
         last_error = ?, request_id = coalesce(?, request_id), claimed_until = null,
         next_attempt_at = case when ?::int is null then next_attempt_at else now() + make_interval(secs => ?::float8 / 1000) end,
         refunded_at = case when ? = 'refunded' then coalesce(refunded_at, now()) else refunded_at end
       where id = ? and status <> 'refunded'`,
      [step.status, step.refundId, paypalStatus, step.lastError, requestId, step.retryInMs, step.retryInMs, step.status, id],
      'run',
    );
  }

  /** PayPal's PAYMENT.CAPTURE.REFUNDED: the refund of this capture is done (also when our call's answer was lost). */
  async confirmRefund(captureId: string, refundId: string, status: string): Promise<boolean> {
    const rows = await this.db.em().execute<{ id: number }[]>(
      `update cup_refunds set status = 'refunded', paypal_refund_id = coalesce(paypal_refund_id, ?), paypal_status = ?, last_error = null,
         refunded_at = coalesce(refunded_at, now())
       where capture_id = ? returning id`,
      [refundId, status, captureId],
    );
    return rows.length > 0;
  }

  /** A cup's refunds, failed ones first: what an admin looks at. */
  async refundsOf(tournamentId: number): Promise<RefundRecord[]> {
    const rows = await this.db.em().execute<RefundRow[]>(
      `select ${REFUND} from cup_refunds r join cup_entry_fees f on f.id = r.fee_id where r.tournament_id = ?
       order by case r.status when 'failed' then 0 when 'pending' then 1 else 2 end, r.id`,
      [tournamentId],
    );
    return rows.map(toRefund);
  }

  async payoutsOf(tournamentId: number, em: EntityManager = this.db.em()): Promise<PayoutRecord[]> {
    const rows = await em.execute<PayoutRow[]>(`select ${PAYOUT} from cup_payouts where tournament_id = ? order by rank`, [tournamentId]);
    return rows.map(toPayout);
  }

  /** The payout of one rank; null when that rank was paid out before (unique per cup and rank). */
  async insertPayoutIn(em: EntityManager, payout: Omit<PayoutRecord, 'id' | 'reference' | 'paidAt'>): Promise<PayoutRecord | null> {
    const [row] = await em.execute<PayoutRow[]>(
      `insert into cup_payouts (tournament_id, rank, team_id, amount, currency, status, paid_at)
       values (?, ?, ?, ?, ?, ?, case when ? = 'paid' then now() end)
       on conflict (tournament_id, rank) do nothing returning ${PAYOUT}`,
      [payout.tournamentId, payout.rank, payout.teamId, payout.amount, payout.currency, payout.status, payout.status],
    );
    return row ? toPayout(row) : null;
  }

  /** Marks a pending money payout paid; the payout as it was before, null when there is none. */
  async markPaidIn(em: EntityManager, tournamentId: number, payoutId: number, reference: string, adminId: number): Promise<PayoutRecord | null> {
    const [before] = await em.execute<PayoutRow[]>(`select ${PAYOUT} from cup_payouts where id = ? and tournament_id = ? for update`, [payoutId, tournamentId]);
    if (!before) return null;
    await em.execute(
      `update cup_payouts set status = 'paid', reference = ?, paid_by_id = ?, paid_at = now() where id = ? and status = 'pending'`,
      [reference, adminId, payoutId],
      'run',
    );
    return toPayout(before);
  }

  /** Cups (tournaments with a fee), soonest start first. */
  async cupIds(page: number, limit: number): Promise<{ ids: number[]; total: number }> {
    const em = this.db.em();
    const [count] = await em.execute<{ n: number }[]>('select count(*)::int as n from tournaments where entry_fee is not null');
    const rows = await em.execute<{ id: number }[]>(
      'select id from tournaments where entry_fee is not null order by starts_at, id limit ? offset ?',
      [limit, (page - 1) * limit],
    );
    return { ids: rows.map((r) => r.id), total: count!.n };
  }

  /**
   * The cup completed in this transaction: the roster of every ranked team is kept as it is now
   * (members and leader), replacing what an earlier completion kept (a correction reopened it).
   */
  async keepFinalRostersIn(em: EntityManager, tournamentId: number): Promise<void> {
    await em.execute('delete from cup_final_rosters where tournament_id = ?', [tournamentId], 'run');
    await em.execute(
      `insert into cup_final_rosters (tournament_id, team_id, user_id, is_leader)
       select e.tournament_id, e.team_id, m.user_id, m.user_id = tm.leader_id
       from tournament_entries e join teams tm on tm.id = e.team_id join team_memberships m on m.team_id = e.team_id and m.left_at is null
       where e.tournament_id = ? and e.final_rank is not null`,
      [tournamentId],
      'run',
    );
  }

  /** The team's final roster in the cup (kept at its completion) and its leader then. */
  async finalRosterIn(em: EntityManager, tournamentId: number, teamId: number): Promise<{ leaderId: number; memberIds: number[] }> {
    const members = await em.execute<{ user_id: number; is_leader: boolean }[]>(
      'select user_id, is_leader from cup_final_rosters where tournament_id = ? and team_id = ? order by user_id',
      [tournamentId, teamId],
    );
    const leader = members.find((m) => m.is_leader);
    if (leader === undefined) throw new Error(`cup ${tournamentId} kept no final roster with a leader for team ${teamId}`);
    return { leaderId: leader.user_id, memberIds: members.map((m) => m.user_id) };
  }

}
