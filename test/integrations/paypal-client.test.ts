import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentProviderError, PayPalClient } from '../../src/integrations/paypal/paypal-client';
import { startFakePayPal, type FakePayPal } from '../fakes/fake-paypal';

/** The PayPal client against the fake's real wire protocol, with a clock the test moves. */

let paypal: FakePayPal;
let nowMs = Date.now();
let serial = 0;
const TOKEN_LIFETIME_S = 3_600;

beforeAll(async () => {
  paypal = await startFakePayPal({ tokenLifetimeS: TOKEN_LIFETIME_S });
});
afterAll(async () => paypal?.close());

const client = (overrides: Partial<ConstructorParameters<typeof PayPalClient>[0]> = {}) =>
  new PayPalClient({ apiUrl: paypal.url, clientId: paypal.clientId, clientSecret: paypal.clientSecret, timeoutMs: 500, clock: () => nowMs, ...overrides });

const orderInput = (requestId = `req-${++serial}`) => ({
  requestId, amount: '8.99', currency: 'EUR', description: 'Premium, 6m', customId: 'user:1', returnUrl: 'http://localhost:8080/premium', cancelUrl: 'http://localhost:8080/premium',
});

describe('OAuth token', () => {
  it('is fetched once and reused until shortly before it expires', async () => {
    const c = client();
    const before = paypal.counts.tokens;
    await c.createOrder(orderInput());
    await c.createOrder(orderInput());
    expect(paypal.counts.tokens).toBe(before + 1);
    nowMs += (TOKEN_LIFETIME_S - 120) * 1000;
    await c.createOrder(orderInput());
    expect(paypal.counts.tokens).toBe(before + 1);
    nowMs += 61_000;
    await c.createOrder(orderInput());
    expect(paypal.counts.tokens).toBe(before + 2);
  });

  it('is fetched once for concurrent first calls', async () => {
    const c = client();
    const before = paypal.counts.tokens;
    await Promise.all([c.createOrder(orderInput()), c.createOrder(orderInput()), c.createOrder(orderInput())]);
    expect(paypal.counts.tokens).toBe(before + 1);
  });

  it('fails as a provider error when the credentials are wrong', async () => {
    await expect(client({ clientSecret: 'wrong' }).createOrder(orderInput())).rejects.toBeInstanceOf(PaymentProviderError);
  });
});

describe('orders', () => {
  it('creates an order and takes its payer-action link as the approval URL', async () => {
    const created = await client().createOrder(orderInput());
    expect(created.approvalUrl).toBe(`${paypal.url}/checkoutnow?token=${created.id}`);
    expect(paypal.order(created.id)).toMatchObject({ status: 'PAYER_ACTION_REQUIRED', amount: { currency_code: 'EUR', value: '8.99' } });
  });

  it('makes one order for two creates with the same PayPal-Request-Id', async () => {
    const before = paypal.counts.orders;
    const input = orderInput();
    const [a, b] = [await client().createOrder(input), await client().createOrder(input)];
    expect(b.id).toBe(a.id);
    expect(paypal.counts.orders).toBe(before + 1);
  });

  it('retries a create after a 5xx with the same request id and fails after two', async () => {
    const before = paypal.counts.orders;
    paypal.fail('create', { status: 500 });
    await client().createOrder(orderInput());
    expect(paypal.counts.orders).toBe(before + 1);
    paypal.fail('create', { status: 500 });
    paypal.fail('create', { status: 502 });
    await expect(client().createOrder(orderInput())).rejects.toThrow('the payment provider refused the create order (502)');
  });

  it('gives up after its timeout on each of two tries', async () => {
    paypal.fail('create', 'hang');
    paypal.fail('create', 'hang');
    const started = Date.now();
    await expect(client().createOrder(orderInput())).rejects.toThrow('the payment provider did not answer in time');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('tells an unapproved order, a capture and an already captured order apart', async () => {
    const c = client();
    const { id } = await c.createOrder(orderInput());
    expect(await c.captureOrder(id, `cap-${id}`)).toEqual({ kind: 'not_approved' });
    paypal.approve(id);
    // PayPal answers a repeated request id with its first answer, the refusal included: a new
    // attempt after a definitive answer needs a new id (the premium service makes one per attempt).
    expect(await c.captureOrder(id, `cap-${id}`)).toEqual({ kind: 'not_approved' });
    const captured = await c.captureOrder(id, `cap2-${id}`);
    expect(captured).toEqual({
      kind: 'captured',
      capture: { captureId: paypal.order(id)!.capture!.id, status: 'COMPLETED', amount: '8.99', currency: 'EUR' },
    });
    // The same request id replays the capture; a new one meets PayPal's refusal.
    expect(await c.captureOrder(id, `cap2-${id}`)).toEqual(captured);
    expect(await c.captureOrder(id, `other-${id}`)).toEqual({ kind: 'already_captured' });
    expect(await c.showOrder(id)).toEqual({ status: 'COMPLETED', capture: captured.kind === 'captured' ? captured.capture : null });
    expect(paypal.counts.captures).toBeGreaterThanOrEqual(1);
  });
});

describe('webhook verification', () => {
  async function delivery(forge: boolean): Promise<{ headers: Record<string, string>; body: unknown }> {
    const c = client();
    const { id } = await c.createOrder(orderInput());
    paypal.approve(id);
    await c.captureOrder(id, `cap-${id}`);
    const signed = paypal.signedDelivery(paypal.captureCompletedEvent(id), { forge });
    return { headers: signed.headers, body: JSON.parse(signed.body) };
  }

  it('accepts a genuine delivery and refuses a forged one', async () => {
    const genuine = await delivery(false);
    expect(await client().verifyWebhook(genuine.headers, genuine.body, paypal.webhookId)).toBe(true);
    const forged = await delivery(true);
    expect(await client().verifyWebhook(forged.headers, forged.body, paypal.webhookId)).toBe(false);
  });

  it('refuses a delivery for another webhook id or without the transmission headers', async () => {
    const genuine = await delivery(false);
    expect(await client().verifyWebhook(genuine.headers, genuine.body, 'WH-SOMEONE-ELSE')).toBe(false);
    const { 'paypal-transmission-sig': _sig, ...unsigned } = genuine.headers;
    expect(await client().verifyWebhook(unsigned, genuine.body, paypal.webhookId)).toBe(false);
  });
});
