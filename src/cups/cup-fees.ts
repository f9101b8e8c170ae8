import { randomUUID } from 'node:crypto';
import { checkCupTerms, checkFeePayable, isPointsFee, type CupTerms } from '../domain/cups';
import { paymentRequired, type DomainError } from '../domain/domain-error';
import type { CupRepository } from '../db/cup-repository';
import type { EntityManager } from '../db/orm';
import { bookOneIn } from '../db/point-ledger';
import type { TournamentRecord } from '../db/tournament-repository';
import type { EntryFeePort } from '../tournaments/entry-fee';

/**
 * Cup entry fees inside the tournaments area's transactions (its EntryFeePort). Points move as
 * ledger rows keyed by the fee row, so the fee and its refund are each booked once; a money fee
 * was captured at PayPal before the entry and is tied to it here, and its refund is queued as a
 * row with its own PayPal-Request-Id for the refund worker, which only runs after this commits.
 */
export class CupEntryFees implements EntryFeePort {
  private refundQueued = false;

  constructor(
    private readonly repo: CupRepository,
    /** The premium currency: the one money currency a cup may charge in. */
    private readonly moneyCurrency: string,
    /** Whether PayPal is configured: without it only points cups are created. */
    private readonly paymentsConfigured: boolean,
  ) {}

  checkTerms(terms: CupTerms | null): DomainError | null {
    return terms === null ? null : (checkCupTerms(terms, this.moneyCurrency) ?? checkFeePayable(terms.entryFee, this.paymentsConfigured));
  }

  async chargeIn(em: EntityManager, t: TournamentRecord, teamId: number, userId: number, payment?: string): Promise<void> {
    const fee = t.entryFee;
    if (fee === null) return;
    if (!isPointsFee(fee)) {
      if (payment === undefined || !(await this.repo.payCapturedIn(em, payment, t.id, teamId))) {
        throw paymentRequired('this cup is paid through PayPal: pay the order the entry answered, then capture it');
      }
      return;
    }
    const feeId = await this.repo.insertFeeIn(em, {
      tournamentId: t.id, teamId, payerId: userId, currency: fee.currency, amount: fee.amount, status: 'paid', orderId: null,
    });
    const booked = await bookOneIn(em, {
      userId, amount: -fee.amount, kind: 'cup_entry', reason: `entry fee: ${t.name}`, actorId: userId, sourceKey: `cup_fee:${feeId}`,
    });
    // Thrown, the whole entry rolls back with the fee row: nothing is written.
    if (booked === null) throw paymentRequired(`the entry fee is ${fee.amount} points: not enough points`);
  }

  async refundIn(em: EntityManager, t: TournamentRecord, teamId: number): Promise<void> {
    if (t.entryFee === null) return;
    const fee = await this.repo.paidFeeIn(em, t.id, teamId);
    if (fee === null || !(await this.repo.refundFeeIn(em, fee.id, 'paid'))) return;
    if (isPointsFee(fee)) {
      await bookOneIn(em, {
        userId: fee.payerId, amount: fee.amount, kind: 'cup_refund', reason: `entry fee refunded: ${t.name}`, actorId: null, sourceKey: `cup_refund:${fee.id}`,
      });
      return;
    }
    await this.repo.insertRefundIn(em, fee, `refund-${randomUUID()}`);
    this.refundQueued = true;
  }

  async completedIn(em: EntityManager, t: TournamentRecord): Promise<void> {
    if (t.entryFee !== null) await this.repo.keepFinalRostersIn(em, t.id);
  }

  /** After a tournament change committed: whether it queued a PayPal refund since the last ask (the worker's poll covers a miss). */
  takeQueuedRefund(): boolean {
    const queued = this.refundQueued;
    this.refundQueued = false;
    return queued;
  }
}
