import type { CupView } from '../../schema/cups';
import { prizePool } from '../domain/cups';
import { notFound } from '../domain/domain-error';
import type { RefundRecord } from '../db/cup-records';
import type { CupRepository } from '../db/cup-repository';
import type { TournamentReads } from '../tournaments/tournament-reads';
import { toPayoutView } from './cup-payouts';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** Cups as clients see them: the tournament with its prize pool and payouts; refunds for admins. */
export class CupReads {
  constructor(
    private readonly repo: CupRepository,
    private readonly tournaments: TournamentReads,
  ) {}

  async cup(id: number): Promise<CupView> {
    const t = await this.tournaments.tournament(id);
    if (t.entry_fee === null) throw notFound('cup not found');
    const [paid, payouts] = await Promise.all([this.repo.paidCount(id), this.repo.payoutsOf(id)]);
    return { ...t, prize_pool: prizePool(t.entry_fee, paid, t.house_percent ?? 0), payouts: payouts.map(toPayoutView) };
  }

  async list(page: number, limit: number): Promise<{ cups: CupView[]; total: number; page: number; limit: number }> {
    const { ids, total } = await this.repo.cupIds(page, limit);
    const cups: CupView[] = [];
    for (const id of ids) cups.push(await this.cup(id));
    return { cups, total, page, limit };
  }

  async refunds(id: number) {
    await this.cup(id);
    return (await this.repo.refundsOf(id)).map((r: RefundRecord) => ({
      id: r.id, team_id: r.teamId, capture_id: r.captureId, amount: r.amount, currency: r.currency, status: r.status,
      paypal_refund_id: r.paypalRefundId, attempts: r.attempts, last_error: r.lastError,
      next_attempt_at: r.status === 'refunded' ? null : r.nextAttemptAt.toISOString(), created_at: r.createdAt.toISOString(), refunded_at: iso(r.refundedAt),
    }));
  }
}
