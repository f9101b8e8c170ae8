import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { GiftCode, PremiumHistoryItem, PremiumStatus } from '../../schema/premium';
import type { GiftCodeRecord, OrderKind, PremiumOrderRecord, PremiumOrderRepository } from '../db/premium-order-repository';
import type { PremiumRepository } from '../db/premium-repository';
import { DomainError, forbidden, invalid, notFound } from '../domain/domain-error';
import { generateGiftCode, GIFT_CODE_VALID_DAYS, giftCodeStatus, isGiftCode, redeemRefusal } from '../domain/premium/gift-code';
import { formatMinor, orderAmountMinor, type PlanPrices, type PremiumPlan } from '../domain/premium/plans';
import { UnauthorizedError } from '../engine/engine-errors';
import type { CompletedCapture, PayPalClient } from '../integrations/paypal/paypal-client';
import { PaymentsUnavailableError, requirePayPal } from '../integrations/paypal/payments-unavailable';
import { WebhookEvent } from '../integrations/paypal/paypal-wire';
import { captureOfEvent, orderIdOfEvent, requireCompletedCapture } from '../integrations/paypal/webhook-event';
import * as v from 'valibot';

export interface PremiumServiceDeps {
  grants: PremiumRepository;
  orders: PremiumOrderRepository;
  /** Null when PAYPAL_CLIENT_ID/SECRET are unset. */
  paypal: PayPalClient | null;
  webhookId: string | undefined;
  prices: PlanPrices;
  currency: string;
  publicUrl: string;
  clock: () => number;
  /** Secure random bytes (crypto.randomBytes): gift codes are drawn from them. */
  random: (n: number) => Uint8Array;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Other areas' PayPal orders (cup entries) on this one webhook: true when the event was theirs. */
  otherOrders?: (event: WebhookEvent) => Promise<boolean>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * Premium purchases and gift codes over PayPal Orders v2. An order is recorded when created and
 * completed once, by whichever of the capture route and PayPal's webhook arrives first
 * (PremiumOrderRepository.complete). Each capture attempt has its own PayPal-Request-Id, reused
 * only for the client's retry of a try that got no answer; two instances capturing at once, or a
 * retry after a lost answer, meet ORDER_ALREADY_CAPTURED and complete from PayPal's record.
 */
export class PremiumService {
  constructor(private readonly deps: PremiumServiceDeps) {}

  async status(userId: number): Promise<PremiumStatus> {
    const now = new Date(this.deps.clock());
    const [grant, until] = await Promise.all([this.deps.grants.activeGrant(userId, now), this.deps.grants.premiumUntil(userId, now)]);
    return { active: grant !== null, plan: grant?.plan ?? null, expires_at: iso(grant ? until : null), source: grant?.source ?? null };
  }

  async history(userId: number): Promise<PremiumHistoryItem[]> {
    const grants = await this.deps.grants.listByUser(userId);
    return grants.map((g) => ({ plan: g.plan, source: g.source, granted_at: g.grantedAt.toISOString(), expires_at: g.expiresAt.toISOString() }));
  }

  async createOrder(userId: number, plan: PremiumPlan, giftQuantity: number | undefined): Promise<{ order_id: string; approval_url: string }> {
    const paypal = this.paypal();
    const kind: OrderKind = giftQuantity === undefined ? 'premium' : 'gift';
    const quantity = giftQuantity ?? 1;
    const amount = formatMinor(orderAmountMinor(this.deps.prices, plan, quantity));
    const requestId = randomUUID();
    const created = await paypal.createOrder({
      requestId,
      amount,
      currency: this.deps.currency,
      description: kind === 'premium' ? `Premium, ${plan}` : `${quantity} premium gift code${quantity > 1 ? 's' : ''}, ${plan}`,
      customId: `user:${userId}`,
      returnUrl: `${this.deps.publicUrl}/premium?paypal=approved`,
      cancelUrl: `${this.deps.publicUrl}/premium?paypal=cancelled`,
    });
    await this.deps.orders.insert({
      id: created.id, userId, kind, plan, quantity, amount, currency: this.deps.currency, requestId, createdAt: new Date(this.deps.clock()),
    });
    this.deps.logger.info({ orderId: created.id, userId, kind, plan, quantity, amount }, 'premium order created');
    return { order_id: created.id, approval_url: created.approvalUrl };
  }

  async capturePremium(userId: number, orderId: string): Promise<PremiumStatus> {
    await this.capture(userId, orderId, 'premium');
    return this.status(userId);
  }

  async captureGiftCodes(userId: number, orderId: string): Promise<GiftCode[]> {
    const codes = await this.capture(userId, orderId, 'gift');
    const now = new Date(this.deps.clock());
    return codes.map((code) => toGiftCode(code, now));
  }

  async giftCodes(userId: number): Promise<GiftCode[]> {
    const now = new Date(this.deps.clock());
    return (await this.deps.orders.giftCodesOf(userId)).map((code) => toGiftCode(code, now));
  }

  async redeem(userId: number | null, code: string): Promise<PremiumStatus> {
    if (userId === null) throw new UnauthorizedError('login required to redeem a gift code');
    if (!isGiftCode(code)) throw invalid('code: must be four groups of four letters or digits, such as ABCD-EFGH-JKLM-2345');
    const now = new Date(this.deps.clock());
    const result = await this.deps.orders.redeem(code, userId, now);
    if (!result.ok) {
      if (!result.code) throw notFound('no such gift code');
      throw redeemRefusal(result.code, now) ?? new DomainError('gone', 'this gift code was just redeemed');
    }
    this.deps.logger.info({ code: result.code.code, userId, grantId: result.grant.id }, 'gift code redeemed');
    return this.status(userId);
  }

  /**
   * PayPal's webhook, verified with PayPal. PAYMENT.CAPTURE.COMPLETED completes its order if
   * nothing else has; CHECKOUT.ORDER.APPROVED captures an order whose buyer approved at PayPal but
   * never came back to the site. Either way the order completes once.
   */
  async webhook(headers: Record<string, string | string[] | undefined>, body: unknown): Promise<{ ok: true }> {
    const paypal = this.paypal();
    if (!this.deps.webhookId) throw new PaymentsUnavailableError('the PayPal webhook is not configured (PAYPAL_WEBHOOK_ID)');
    const parsed = v.safeParse(WebhookEvent, body);
    if (!parsed.success) throw invalid('not a PayPal webhook event');
    if (!(await paypal.verifyWebhook(headers, body, this.deps.webhookId))) throw invalid('webhook signature not verified');
    const event = parsed.output;
    if (await this.deps.otherOrders?.(event)) return { ok: true };
    const orderId = orderIdOfEvent(event);
    const order = orderId ? await this.deps.orders.find(orderId) : null;
    if (orderId && !order) this.deps.logger.warn({ eventId: event.id, orderId }, 'PayPal webhook for an order this server did not create');
    if (order && order.status !== 'completed') {
      if (event.event_type === 'CHECKOUT.ORDER.APPROVED') {
        await this.captureAtPayPal(order, 'webhook').catch((error: unknown) => {
          // Not approved after all, or a pending payment: nothing to grant yet; PayPal's later events will tell.
          if (!(error instanceof DomainError && error.kind === 'payment_required')) throw error;
        });
        return { ok: true };
      }
      const capture = captureOfEvent(event);
      if (capture !== null) {
        await this.complete(order, capture, 'webhook');
        return { ok: true };
      }
    }
    this.deps.logger.info({ eventId: event.id, type: event.event_type, orderId }, 'PayPal webhook event needs nothing done');
    return { ok: true };
  }

  private async capture(userId: number, orderId: string, kind: OrderKind): Promise<GiftCodeRecord[]> {
    const order = await this.deps.orders.find(orderId);
    if (!order) throw notFound('no such order');
    if (order.userId !== userId) throw forbidden('this order belongs to another user');
    if (order.kind !== kind) {
      throw invalid(kind === 'gift' ? 'this order buys premium: capture it at /api/premium/capture-order' : 'this order buys gift codes: capture it at /api/premium/gift-codes/capture-paypal');
    }
    if (order.status === 'completed') return this.deps.orders.codesOfOrder(orderId);
    return this.captureAtPayPal(order, 'capture');
  }

  private async captureAtPayPal(order: PremiumOrderRecord, via: 'capture' | 'webhook'): Promise<GiftCodeRecord[]> {
    const paypal = this.paypal();
    // A new request id per attempt: PayPal answers a repeated id with its first answer, so one
    // kept per order would answer ORDER_NOT_APPROVED forever after an early try. The client reuses
    // it only to retry a try that got no answer; a capture that went through meanwhile (another
    // instance, a lost answer) comes back ORDER_ALREADY_CAPTURED and is read from PayPal.
    const capture = await paypal.captureApproved(order.id, `capture-${randomUUID()}`);
    if (capture === null) throw new DomainError('payment_required', 'the buyer has not approved this order at PayPal yet');
    return this.complete(order, capture, via);
  }

  private async complete(order: PremiumOrderRecord, capture: CompletedCapture, via: 'capture' | 'webhook'): Promise<GiftCodeRecord[]> {
    requireCompletedCapture(capture, { orderId: order.id, amount: order.amount, currency: order.currency }, 'premium follows', this.deps.logger);
    const now = new Date(this.deps.clock());
    const done = await this.deps.orders.complete(order.id, { captureId: capture.captureId, amount: capture.amount, via, now }, {
      newCodes: (count) => Array.from({ length: count }, () => generateGiftCode(this.deps.random)),
      expiresAt: (from) => new Date(from.getTime() + GIFT_CODE_VALID_DAYS * DAY_MS),
    });
    if (!done) throw notFound('no such order');
    if (done.first) {
      this.deps.logger.info({ orderId: order.id, captureId: capture.captureId, via, grantId: done.grant?.id, codes: done.codes.length }, 'premium order completed');
    }
    return done.codes;
  }

  private paypal(): PayPalClient {
    return requirePayPal(this.deps.paypal);
  }
}

function toGiftCode(code: GiftCodeRecord, now: Date): GiftCode {
  return {
    code: code.code,
    plan: code.plan,
    status: giftCodeStatus(code, now),
    created_at: code.createdAt.toISOString(),
    expires_at: code.expiresAt.toISOString(),
    redeemed_by: code.redeemedBy,
    redeemed_at: iso(code.redeemedAt),
  };
}
