import type { Logger } from 'pino';
import { paymentRequired } from '../../domain/domain-error';
import { PaymentProviderError, type CompletedCapture } from './paypal-client';
import type { WebhookEvent } from './paypal-wire';

/**
 * What PayPal's webhook events and captures say, read one way for every area that sells through
 * PayPal (premium orders, cup entries).
 */

/** The order an event is about: the resource itself when approved, the capture's related order otherwise. */
export function orderIdOfEvent(event: WebhookEvent): string | undefined {
  const resource = event.resource;
  return event.event_type === 'CHECKOUT.ORDER.APPROVED' ? resource?.id : resource?.supplementary_data?.related_ids?.order_id;
}

/** The capture a PAYMENT.CAPTURE.COMPLETED event carries; null for any other event or an incomplete resource. */
export function captureOfEvent(event: WebhookEvent): CompletedCapture | null {
  const resource = event.resource;
  if (event.event_type !== 'PAYMENT.CAPTURE.COMPLETED' || !resource?.id || !resource.status || !resource.amount) return null;
  return { captureId: resource.id, status: resource.status, amount: resource.amount.value, currency: resource.amount.currency_code };
}

/** The refund a PAYMENT.CAPTURE.REFUNDED event carries (the resource is the refund; its `up` link names the capture). */
export function refundOfEvent(event: WebhookEvent): { captureId: string; refundId: string; status: string } | null {
  const resource = event.resource;
  if (event.event_type !== 'PAYMENT.CAPTURE.REFUNDED') return null;
  const captureId = resource?.links.find((link) => link.rel === 'up')?.href.split('/').pop();
  if (!captureId || !resource?.id) return null;
  return { captureId, refundId: resource.id, status: resource.status ?? 'COMPLETED' };
}

/**
 * Throws unless the capture completed for exactly what was ordered: payment_required while PayPal
 * holds it pending (`follows`: what the buyer gets once it completes), PaymentProviderError (502,
 * logged) when the amount or currency differs.
 */
export function requireCompletedCapture(
  capture: CompletedCapture,
  ordered: { orderId: string; amount: string; currency: string },
  follows: string,
  logger: Pick<Logger, 'error'>,
): void {
  if (capture.status !== 'COMPLETED') throw paymentRequired(`the payment is ${capture.status.toLowerCase()} at PayPal; ${follows} once it completes`);
  if (capture.amount !== ordered.amount || capture.currency !== ordered.currency) {
    logger.error(
      { orderId: ordered.orderId, captureId: capture.captureId, expected: `${ordered.amount} ${ordered.currency}`, got: `${capture.amount} ${capture.currency}` },
      'captured amount does not match the order',
    );
    throw new PaymentProviderError('the captured amount does not match the order');
  }
}
