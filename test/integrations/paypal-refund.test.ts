import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentProviderError, PayPalClient } from '../../src/integrations/paypal/paypal-client';
import { startFakePayPal, type FakePayPal } from '../fakes/fake-paypal';

/** The PayPal client's refund call against the fake's wire protocol. */

let paypal: FakePayPal;
let serial = 0;

beforeAll(async () => {
  paypal = await startFakePayPal();
});
afterAll(async () => paypal?.close());

const client = () => new PayPalClient({ apiUrl: paypal.url, clientId: paypal.clientId, clientSecret: paypal.clientSecret, timeoutMs: 500, clock: Date.now });

/** A captured order's capture id. */
async function captured(c: PayPalClient): Promise<string> {
  const { id } = await c.createOrder({
    requestId: `req-${++serial}`, amount: '5.00', currency: 'EUR', description: 'Cup entry', customId: 'cup:1:team:1',
    returnUrl: 'http://localhost:8080/cups/1', cancelUrl: 'http://localhost:8080/cups/1',
  });
  paypal.approve(id);
  const capture = await c.captureApproved(id, `cap-${id}`);
  return capture!.captureId;
}

const refund = (c: PayPalClient, captureId: string, requestId: string) =>
  c.refundCapture({ captureId, requestId, amount: '5.00', currency: 'EUR', invoiceId: `fee-${captureId}`, note: 'refund' });

describe('refunds', () => {
  it('refunds a capture and answers PayPal\'s refund id', async () => {
    const c = client();
    const captureId = await captured(c);
    const result = await refund(c, captureId, `r-${captureId}`);
    expect(result).toEqual({ kind: 'refunded', refundId: paypal.refunds.at(-1)!.id, status: 'COMPLETED' });
    expect(paypal.refunds.at(-1)!.captureId).toBe(captureId);
  });

  it('refunds once when the first answer is lost and the retry carries the same request id', async () => {
    const c = client();
    const captureId = await captured(c);
    const before = paypal.counts.refunds;
    paypal.fail('refund', 'lose_answer');
    const result = await refund(c, captureId, `r-${captureId}`);
    expect(result.kind).toBe('refunded');
    expect(paypal.counts.refunds - before).toBe(1);
  });

  it('tells a refusal from no answer', async () => {
    const c = client();
    const captureId = await captured(c);
    await refund(c, captureId, `r1-${captureId}`);
    expect(await refund(c, captureId, `r2-${captureId}`)).toEqual({ kind: 'refused', issue: 'CAPTURE_FULLY_REFUNDED' });
    paypal.fail('refund', 'hang');
    paypal.fail('refund', 'hang');
    await expect(refund(c, captureId, `r3-${captureId}`)).rejects.toBeInstanceOf(PaymentProviderError);
  });
});
