import type { PayPalClient } from './paypal-client';

/** Payments are not configured on this server (no PayPal credentials, or no webhook id): 503. */
export class PaymentsUnavailableError extends Error {
  readonly status = 503;
  readonly expose = true;
  constructor(message: string) {
    super(message);
    this.name = 'PaymentsUnavailableError';
  }
}

/** The PayPal client, or 503 when this server has no PayPal credentials. */
export function requirePayPal(paypal: PayPalClient | null): PayPalClient {
  if (paypal === null) throw new PaymentsUnavailableError('payments are not configured on this server');
  return paypal;
}
