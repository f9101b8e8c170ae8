import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { afterRefundAttempt, type RefundAnswer } from '../domain/cups';
import { formatMinor } from '../domain/premium/plans';
import type { RefundRecord } from '../db/cup-records';
import type { CupRepository } from '../db/cup-repository';
import { PaymentProviderError, type PayPalClient } from '../integrations/paypal/paypal-client';

export interface RefundWorkerDeps {
  repo: CupRepository;
  paypal: PayPalClient | null;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** How often due refunds are looked for when nothing kicks the worker. */
  pollMs: number;
  /** How long a claimed refund is this instance's: longer than a PayPal call with its retry. */
  leaseMs: number;
  /** Runs first in every pass while PayPal is configured (it looks at most every 30 s): settles stuck fees, whose refunds are then sent in the same pass. */
  sweep(): Promise<void>;
}

/** Refunds per pass at most, so one pass never holds the loop for long. */
const BATCH = 50;

/**
 * Sends queued PayPal refunds. Each refund row carries the request id of its current attempt:
 * the PayPal client retries an unanswered try with it (PayPal replays the first answer, so a
 * timed-out refund that went through is not repeated), a definitive refusal takes a new one for
 * the next attempt. A claim lease keeps two instances off one row; should a lease run out mid-call,
 * the second sender reuses the same request id and PayPal still refunds once. Failed refunds stay
 * visible (GET /api/admin/cups/{id}/refunds) and are retried with growing waits, never dropped.
 */
export class RefundWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private warnedUnconfigured = false;

  constructor(private readonly deps: RefundWorkerDeps) {}

  start(): void {
    this.schedule();
  }

  /** Something may have queued a refund: look now (again after the current pass if one runs). */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.kick();
      this.schedule();
    }, this.deps.pollMs);
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    const paypal = this.deps.paypal;
    try {
      if (paypal === null) return await this.warnUnconfigured();
      await this.deps.sweep();
      for (let i = 0; i < BATCH && !this.closed; i++) {
        const refund = await this.deps.repo.claimDueRefund(this.deps.leaseMs);
        if (refund === null) return;
        await this.attempt(paypal, refund);
      }
    } catch (error) {
      this.deps.logger.error({ err: error }, 'cup refund pass failed');
    }
  }

  /** Refunds queued on a server without PayPal wait until it is configured: said once, not on every poll. */
  private async warnUnconfigured(): Promise<void> {
    if (this.warnedUnconfigured || !(await this.deps.repo.hasQueuedRefunds())) return;
    this.warnedUnconfigured = true;
    this.deps.logger.warn('cup refunds are queued but PayPal is not configured (PAYPAL_CLIENT_ID/PAYPAL_CLIENT_SECRET): they are sent once it is');
  }

  private async attempt(paypal: PayPalClient, refund: RefundRecord): Promise<void> {
    let answer: RefundAnswer;
    try {
      const result = await paypal.refundCapture({
        captureId: refund.captureId, requestId: refund.requestId, amount: formatMinor(refund.amount), currency: refund.currency,
        invoiceId: `cup-fee-${refund.feeId}`, note: 'Cup entry fee refunded',
      });
      answer = result.kind === 'refunded' ? result : { kind: 'refused', reason: `PayPal refused the refund: ${result.issue}` };
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      answer = { kind: 'unanswered', reason: error.message };
    }
    const step = afterRefundAttempt(answer, refund.attempts);
    await this.deps.repo.recordAttempt(refund.id, step, step.newRequestId ? `refund-${randomUUID()}` : null, answer.kind === 'refunded' ? answer.status : null);
    const log = { refundId: refund.id, captureId: refund.captureId, attempt: refund.attempts, paypalRefundId: step.refundId, error: step.lastError };
    if (step.status === 'refunded') this.deps.logger.info(log, 'cup entry fee refunded at PayPal');
    else this.deps.logger.warn(log, 'cup entry fee refund failed; it will be retried');
  }
}
