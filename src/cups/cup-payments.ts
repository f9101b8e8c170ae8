import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { TournamentView } from '../../schema/tournaments';
import { isPointsFee } from '../domain/cups';
import { conflict, DomainError, forbidden, notFound, paymentRequired } from '../domain/domain-error';
import { formatMinor } from '../domain/premium/plans';
import type { FeeRecord } from '../db/cup-records';
import type { CupRepository } from '../db/cup-repository';
import type { TournamentRepository } from '../db/tournament-repository';
import type { CompletedCapture, PayPalClient } from '../integrations/paypal/paypal-client';
import { requirePayPal } from '../integrations/paypal/payments-unavailable';
import type { WebhookEvent } from '../integrations/paypal/paypal-wire';
import { captureOfEvent, orderIdOfEvent, refundOfEvent, requireCompletedCapture } from '../integrations/paypal/webhook-event';
import type { TournamentCommands } from '../tournaments/tournament-commands';
import type { TournamentReads } from '../tournaments/tournament-reads';

type EntryView = TournamentView['entries'][number];

export interface CupPaymentsDeps {
  repo: CupRepository;
  tournaments: TournamentRepository;
  commands: TournamentCommands;
  reads: TournamentReads;
  /** Null when PAYPAL_CLIENT_ID/SECRET are unset: money cups answer 503. */
  paypal: PayPalClient | null;
  publicUrl: string;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** A refund was queued and committed: the refund worker should look now. */
  refundsQueued(): void;
}

/**
 * Money entries: a PayPal order per entry (no place held while unpaid), captured by the buyer's
 * return (POST /api/cups/{id}/entries/capture) or PayPal's webhook, whichever comes first; the
 * entry is made in the tournament's transaction that also ties the capture to it, so concurrent
 * captures of one order make one entry. A capture that can no longer enter (the cup filled up,
 * signups closed) is refunded, never kept.
 */
export class CupPayments {
  constructor(private readonly deps: CupPaymentsDeps) {}

  /** The entry of a money cup: a PayPal order to approve; null for any other tournament (it enters as usual). */
  async orderEntry(tournamentId: number, teamId: number, userId: number): Promise<{ order_id: string; approval_url: string } | null> {
    const found = await this.deps.tournaments.find(tournamentId);
    if (found === null || found.entryFee === null || isPointsFee(found.entryFee)) return null;
    const paypal = this.paypal();
    // Every rule of entering before money is asked for; the capture checks them again.
    const t = await this.deps.commands.checkEntry(tournamentId, teamId, userId);
    const fee = t.entryFee!;
    const created = await paypal.createOrder({
      requestId: randomUUID(),
      amount: formatMinor(fee.amount),
      currency: fee.currency,
      description: `Cup entry: ${t.name}`.slice(0, 127),
      customId: `cup:${t.id}:team:${teamId}`,
      returnUrl: `${this.deps.publicUrl}/cups/${t.id}?paypal=approved`,
      cancelUrl: `${this.deps.publicUrl}/cups/${t.id}?paypal=cancelled`,
    });
    await this.deps.repo.insertFeeIn(this.deps.repo.em(), {
      tournamentId: t.id, teamId, payerId: userId, currency: fee.currency, amount: fee.amount, status: 'pending_payment', orderId: created.id,
    });
    this.deps.logger.info({ orderId: created.id, tournamentId: t.id, teamId, userId }, 'cup entry order created');
    return { order_id: created.id, approval_url: created.approvalUrl };
  }

  /** The buyer is back from PayPal: capture and enter. Twice: the same entry. */
  async capture(tournamentId: number, userId: number, orderId: string): Promise<EntryView> {
    const fee = await this.deps.repo.feeOfOrder(orderId);
    if (fee === null || fee.tournamentId !== tournamentId) throw notFound('no such entry order in this cup');
    if (fee.payerId !== userId) throw forbidden('this order belongs to another user');
    return this.settle(fee);
  }

  /**
   * PayPal's webhook events of cup orders: an approved order is captured and entered (the buyer
   * may have closed the page), a completed capture enters, a refund is confirmed. False: not a cup's.
   */
  async webhookEvent(event: WebhookEvent): Promise<boolean> {
    if (event.event_type === 'PAYMENT.CAPTURE.REFUNDED') {
      const refund = refundOfEvent(event);
      return refund !== null && this.deps.repo.confirmRefund(refund.captureId, refund.refundId, refund.status);
    }
    const orderId = orderIdOfEvent(event);
    const fee = orderId ? await this.deps.repo.feeOfOrder(orderId) : null;
    if (fee === null) return false;
    const completed = captureOfEvent(event);
    if (event.event_type !== 'CHECKOUT.ORDER.APPROVED' && completed === null) return true;
    await this.settleUnattended(fee, completed, 'cup order webhook: no entry');
    return true;
  }

  /**
   * The sweep's look at a fee nobody settled past the grace (a crash between the capture and the
   * entry, the webhook off): an order PayPal shows captured is recorded, and a captured fee enters
   * its team or, when the team can no longer enter, is refunded. An order PayPal has not captured
   * is left to its buyer: the sweep never takes money itself.
   */
  async reconcile(fee: FeeRecord): Promise<void> {
    let capture: CompletedCapture | null = null;
    if (fee.status === 'pending_payment') {
      capture = (await this.paypal().showOrder(fee.orderId!)).capture;
      if (capture === null) return;
      this.deps.logger.warn({ orderId: fee.orderId, captureId: capture.captureId }, 'cup entry order captured at PayPal but never recorded; settling it');
    }
    await this.settleUnattended(fee, capture, 'stuck cup fee: no entry');
  }

  /** Settles with no buyer waiting for the answer: a refusal the buyer sees on return (not approved, refunded) is only logged. */
  private async settleUnattended(fee: FeeRecord, capture: CompletedCapture | null, context: string): Promise<void> {
    try {
      if (capture !== null && fee.status === 'pending_payment') await this.recordCapture(fee, capture);
      await this.settle((await this.deps.repo.feeOfOrder(fee.orderId!)) ?? fee);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      this.deps.logger.info({ orderId: fee.orderId, reason: error.message }, context);
    }
  }

  private async settle(fee: FeeRecord): Promise<EntryView> {
    if (fee.status === 'refunded') throw conflict('this entry was refunded');
    if (fee.status === 'paid') return this.entryOf(fee);
    if (fee.status === 'pending_payment') {
      // No money is taken for an entry that could not be made now (the cup filled up or started).
      const refusal = await this.deps.commands.checkEntry(fee.tournamentId, fee.teamId, fee.payerId).then(() => null, (error: unknown) => error);
      if (refusal !== null) {
        if ((await this.deps.repo.feeOfOrder(fee.orderId!))?.status === 'paid') return this.entryOf(fee);
        throw refusal;
      }
      await this.captureAtPayPal(fee);
    }
    try {
      await this.deps.commands.enter(fee.tournamentId, fee.teamId, fee.payerId, fee.orderId!);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // Another capture of this order entered first: the same entry.
      if ((await this.deps.repo.feeOfOrder(fee.orderId!))?.status !== 'paid') await this.refundUnentered(fee, error);
    }
    return this.entryOf(fee);
  }

  private async captureAtPayPal(fee: FeeRecord): Promise<void> {
    const paypal = this.paypal();
    const orderId = fee.orderId!;
    const capture = await paypal.captureApproved(orderId, `capture-${randomUUID()}`);
    if (capture === null) throw paymentRequired('the buyer has not approved this order at PayPal yet');
    await this.recordCapture(fee, capture);
  }

  private async recordCapture(fee: FeeRecord, capture: CompletedCapture): Promise<void> {
    requireCompletedCapture(capture, { orderId: fee.orderId!, amount: formatMinor(fee.amount), currency: fee.currency }, 'the entry follows', this.deps.logger);
    await this.deps.repo.markCaptured(fee.orderId!, capture.captureId);
  }

  /** The money was taken but the team cannot enter any more: the capture is refunded, and the buyer told why. */
  private async refundUnentered(fee: FeeRecord, why: DomainError): Promise<never> {
    const queued = await this.deps.repo.em().transactional(async (em) => {
      const captured = await this.deps.repo.feeOfOrder(fee.orderId!, em);
      if (captured === null || !(await this.deps.repo.refundFeeIn(em, captured.id, 'captured'))) return false;
      await this.deps.repo.insertRefundIn(em, captured, `refund-${randomUUID()}`);
      return true;
    });
    if (queued) {
      this.deps.refundsQueued();
      this.deps.logger.warn({ orderId: fee.orderId, reason: why.message }, 'cup entry refused after payment; the capture is refunded');
      throw new DomainError(why.kind === 'payment_required' ? 'conflict' : why.kind, `${why.message}; the payment is refunded`);
    }
    throw why;
  }

  private async entryOf(fee: FeeRecord): Promise<EntryView> {
    const entry = (await this.deps.reads.tournament(fee.tournamentId)).entries.find((e) => e.team.id === fee.teamId);
    if (!entry) throw conflict('the entry was withdrawn');
    return entry;
  }

  private paypal(): PayPalClient {
    return requirePayPal(this.deps.paypal);
  }
}
