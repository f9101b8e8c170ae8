import type { PayoutView } from '../../schema/cups';
import { isPointsFee, payoutLines, prizePool, splitAmongRoster } from '../domain/cups';
import { conflict, notFound } from '../domain/domain-error';
import { AdminAuditRepository } from '../db/admin-audit-repository';
import type { PayoutRecord } from '../db/cup-records';
import type { CupRepository } from '../db/cup-repository';
import { bookIn } from '../db/point-ledger';
import type { TournamentRepository } from '../db/tournament-repository';

export const toPayoutView = (p: PayoutRecord): PayoutView => ({
  id: p.id, rank: p.rank, team_id: p.teamId, amount: p.amount, currency: p.currency, status: p.status, reference: p.reference,
  paid_at: p.paidAt ? p.paidAt.toISOString() : null,
});

/**
 * Prizes of a completed cup. Everything runs in one transaction under the tournament's row lock;
 * each prize is a row unique per (cup, rank), and a points prize's ledger rows are booked only
 * with the row that was newly inserted (their source keys name it), so a second call pays nothing.
 */
export class CupPayouts {
  constructor(
    private readonly repo: CupRepository,
    private readonly tournaments: TournamentRepository,
  ) {}

  pay(tournamentId: number, adminId: number): Promise<PayoutView[]> {
    return this.tournaments.lockedIn(tournamentId, async (em, t) => {
      if (t === null || t.entryFee === null) throw notFound('cup not found');
      if (t.status !== 'completed') throw conflict('payouts are locked until the cup has completed');
      const fee = t.entryFee;
      const pool = prizePool(fee, await this.repo.paidCount(tournamentId, em), t.housePercent ?? 0);
      const ranked = (await this.tournaments.entries([tournamentId], em))
        .filter((e) => e.finalRank !== null)
        .map((e) => ({ teamId: e.team.id, finalRank: e.finalRank!, order: e.seed ?? Number.MAX_SAFE_INTEGER }));
      const created: PayoutRecord[] = [];
      for (const line of payoutLines(pool.amount, t.prizes ?? [], ranked)) {
        const row = await this.repo.insertPayoutIn(em, {
          tournamentId, rank: line.rank, teamId: line.teamId, amount: line.amount, currency: fee.currency, status: isPointsFee(fee) ? 'paid' : 'pending',
        });
        if (row === null) continue;
        created.push(row);
        if (!isPointsFee(fee)) continue;
        const roster = await this.repo.finalRosterIn(em, tournamentId, line.teamId);
        await bookIn(em, splitAmongRoster(line.amount, roster.memberIds, roster.leaderId).map((part) => ({
          userId: part.userId, amount: part.amount, kind: 'cup_prize' as const, reason: `prize, rank ${line.rank}: ${t.name}`, actorId: adminId,
          sourceKey: `cup_prize:${row.id}:${part.userId}`,
        })));
      }
      if (created.length > 0) {
        await AdminAuditRepository.insertIn(em, {
          actorId: adminId, action: 'cups.payouts', targetType: 'tournament', targetId: String(tournamentId), before: null,
          after: { prize_pool: pool, payouts: created.map(toPayoutView) }, reason: null,
        });
      }
      return (await this.repo.payoutsOf(tournamentId, em)).map(toPayoutView);
    });
  }

  /** An operator paid a money prize outside the server: recorded with their reference, once. */
  markPaid(tournamentId: number, payoutId: number, reference: string, adminId: number): Promise<PayoutView> {
    return this.repo.em().transactional(async (em) => {
      const before = await this.repo.markPaidIn(em, tournamentId, payoutId, reference, adminId);
      if (before === null) throw notFound('payout not found');
      if (before.status === 'paid') {
        if (before.reference === reference) return toPayoutView(before);
        throw conflict('this payout is already paid');
      }
      const after = (await this.repo.payoutsOf(tournamentId, em)).find((p) => p.id === payoutId)!;
      await AdminAuditRepository.insertIn(em, {
        actorId: adminId, action: 'cups.payout_paid', targetType: 'cup_payout', targetId: String(payoutId), before: toPayoutView(before),
        after: toPayoutView(after), reason: reference,
      });
      return toPayoutView(after);
    });
  }
}
