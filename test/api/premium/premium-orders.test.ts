import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planEnd } from '../../../src/domain/premium/plans';
import { nextPlatformId } from '../lobby/lobby-client';
import { call, movableClock } from '../identity/identity-fixtures';
import { approveAsBuyer, buyPremium, capture, captureGifts, createOrder, rows, startPremiumWorld, type PremiumWorld } from './premium-fixtures';

/** create-order, capture-order, status and history over real HTTP against the fake PayPal. */

const clock = movableClock();
let world: PremiumWorld;

beforeAll(async () => {
  world = await startPremiumWorld({ clock: clock.now });
});
afterAll(async () => world?.close());

const login = () => world.server.login(nextPlatformId());
const history = async (cookie: string) => (await call(world.server, '/api/premium/history', { cookie })).json() as Promise<unknown[]>;

describe('status and history', () => {
  it('shows a user who never bought as not premium with no history', async () => {
    const user = await login();
    expect(await (await call(world.server, '/api/premium/status', { cookie: user.cookie })).json()).toEqual({
      active: false, plan: null, expires_at: null, source: null,
    });
    expect(await history(user.cookie)).toEqual([]);
  });

  it('extends a second purchase from the current expiry, not from now', async () => {
    const user = await login();
    const first = await buyPremium(world.server, user.cookie, '3m');
    const second = await buyPremium(world.server, user.cookie, '12m');
    const firstEnd = new Date(first.status.expires_at as string);
    expect(second.status.expires_at).toBe(planEnd('12m', firstEnd).toISOString());
    // The running grant is still the first one.
    expect(second.status).toMatchObject({ active: true, plan: '3m', source: `paypal:${first.orderId}` });
    expect(await history(user.cookie)).toEqual([
      { plan: '12m', source: `paypal:${second.orderId}`, granted_at: firstEnd.toISOString(), expires_at: planEnd('12m', firstEnd).toISOString() },
      { plan: '3m', source: `paypal:${first.orderId}`, granted_at: expect.any(String), expires_at: firstEnd.toISOString() },
    ]);
  });
});

describe('create-order', () => {
  it('answers 400 for an unknown plan or a gift quantity outside 1 to 20', async () => {
    const user = await login();
    for (const body of [{ plan: '1m' }, {}, { plan: '3m', gift_quantity: 0 }, { plan: '3m', gift_quantity: 21 }, { plan: '3m', gift_quantity: 1.5 }]) {
      const response = await call(world.server, '/api/premium/create-order', { method: 'POST', cookie: user.cookie, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    }
  });

  it('prices the order from configuration and records it for reconciliation', async () => {
    const user = await login();
    const order = await createOrder(world.server, user.cookie, { plan: '12m' });
    expect(order.approval_url).toBe(`${world.paypal.url}/checkoutnow?token=${order.order_id}`);
    expect(world.paypal.order(order.order_id)?.amount).toEqual({ currency_code: 'EUR', value: '14.99' });
    expect(await rows(world, 'select user_id, kind, plan, quantity, amount, currency, status, capture_id from premium_orders where id = ?', [order.order_id])).toEqual([
      { user_id: user.user.id, kind: 'premium', plan: '12m', quantity: 1, amount: '14.99', currency: 'EUR', status: 'created', capture_id: null },
    ]);
  });

  it('retries a create that met a 500 with the same PayPal-Request-Id, so PayPal makes one order', async () => {
    const user = await login();
    const before = world.paypal.counts.orders;
    world.paypal.fail('create', 'lose_answer');
    const order = await createOrder(world.server, user.cookie, { plan: '3m' });
    expect(world.paypal.counts.orders).toBe(before + 1);
    expect(world.paypal.order(order.order_id)).toBeDefined();
  });

  it('answers 502 when PayPal keeps failing', async () => {
    const user = await login();
    world.paypal.fail('create', { status: 500 });
    world.paypal.fail('create', { status: 503 });
    const response = await call(world.server, '/api/premium/create-order', { method: 'POST', cookie: user.cookie, body: { plan: '3m' } });
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: expect.stringContaining('payment provider') });
  });

  it('answers 502 when PayPal does not answer in time', async () => {
    const user = await login();
    world.paypal.fail('create', 'hang');
    world.paypal.fail('create', 'hang');
    const started = Date.now();
    const response = await call(world.server, '/api/premium/create-order', { method: 'POST', cookie: user.cookie, body: { plan: '3m' } });
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: 'the payment provider did not answer in time' });
    expect(Date.now() - started).toBeLessThan(6_000);
  });
});

describe('capture-order', () => {
  it('answers 402 while the buyer has not approved the order', async () => {
    const user = await login();
    const order = await createOrder(world.server, user.cookie, { plan: '3m' });
    const response = await capture(world.server, user.cookie, order.order_id);
    expect(response.status).toBe(402);
    expect(await response.json()).toEqual({ error: expect.stringContaining('not approved') });
    expect(await history(user.cookie)).toEqual([]);
  });

  it("answers 403 for another user's order and captures nothing", async () => {
    const owner = await login();
    const other = await login();
    const order = await createOrder(world.server, owner.cookie, { plan: '3m' });
    await approveAsBuyer(order.approval_url);
    const response = await capture(world.server, other.cookie, order.order_id);
    expect(response.status).toBe(403);
    expect(world.paypal.order(order.order_id)?.status).toBe('APPROVED');
    expect(await history(other.cookie)).toEqual([]);
  });

  it('answers 404 for an order this server never created and 400 for a malformed id', async () => {
    const user = await login();
    expect((await capture(world.server, user.cookie, 'NOSUCHORDER123')).status).toBe(404);
    expect((await capture(world.server, user.cookie, 'not an order id')).status).toBe(400);
  });

  it('answers 400 when a gift-code order is captured as premium', async () => {
    const user = await login();
    const order = await createOrder(world.server, user.cookie, { plan: '3m', gift_quantity: 2 });
    await approveAsBuyer(order.approval_url);
    const response = await capture(world.server, user.cookie, order.order_id);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.stringContaining('gift-codes/capture-paypal') });
  });

  it('grants once when the same order is captured twice', async () => {
    const user = await login();
    const bought = await buyPremium(world.server, user.cookie, '6m');
    const again = await capture(world.server, user.cookie, bought.orderId);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(bought.status);
    expect(await history(user.cookie)).toHaveLength(1);
  });

  it('grants once when the capture answer was lost and the capture is retried', async () => {
    const user = await login();
    const order = await createOrder(world.server, user.cookie, { plan: '3m' });
    await approveAsBuyer(order.approval_url);
    // PayPal captures, but neither the try nor the client's own retry hears back.
    world.paypal.fail('capture', 'lose_answer');
    world.paypal.fail('capture', 'hang');
    expect((await capture(world.server, user.cookie, order.order_id)).status).toBe(502);
    expect(world.paypal.order(order.order_id)?.status).toBe('COMPLETED');
    expect(await history(user.cookie)).toEqual([]);

    const retried = await capture(world.server, user.cookie, order.order_id);
    expect(retried.status).toBe(200);
    expect(await retried.json()).toMatchObject({ active: true, plan: '3m', source: `paypal:${order.order_id}` });
    expect(await history(user.cookie)).toHaveLength(1);
    expect(world.paypal.order(order.order_id)?.capture).toBeDefined();
  });

  it('grants from PayPal\'s record when PayPal answers that the order was already captured', async () => {
    const user = await login();
    const order = await createOrder(world.server, user.cookie, { plan: '6m' });
    await approveAsBuyer(order.approval_url);
    // Captured without our request id (PayPal's idempotency window long gone, say): a capture now is ORDER_ALREADY_CAPTURED.
    world.paypal.captureBehindOurBack(order.order_id);
    const response = await capture(world.server, user.cookie, order.order_id);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ active: true, plan: '6m' });
    const [row] = await rows(world, 'select capture_id from premium_orders where id = ?', [order.order_id]);
    expect(row.capture_id).toBe(world.paypal.order(order.order_id)!.capture!.id);
  });

  it('records the capture beside its order: capture id, amount, currency, who and when', async () => {
    const user = await login();
    const bought = await buyPremium(world.server, user.cookie, '3m');
    const paypalCapture = world.paypal.order(bought.orderId)!.capture!;
    const [order] = await rows(world, 'select * from premium_orders where id = ?', [bought.orderId]);
    expect(order).toMatchObject({
      user_id: user.user.id, status: 'completed', capture_id: paypalCapture.id, amount: '4.99', captured_amount: '4.99', currency: 'EUR', completed_via: 'capture',
    });
    expect(Math.abs(new Date(order.captured_at).getTime() - clock.now())).toBeLessThan(10_000);
    const [grant] = await rows(world, 'select user_id, order_id, source from premium_grants where order_id = ?', [bought.orderId]);
    expect(grant).toEqual({ user_id: user.user.id, order_id: bought.orderId, source: `paypal:${bought.orderId}` });
  });
});

describe('gift-codes/capture-paypal', () => {
  it('returns the same codes when captured twice', async () => {
    const user = await login();
    const order = await createOrder(world.server, user.cookie, { plan: '12m', gift_quantity: 2 });
    await approveAsBuyer(order.approval_url);
    const first = await captureGifts(world.server, user.cookie, order.order_id);
    expect(first.status).toBe(200);
    const codes = await first.json();
    expect(codes).toHaveLength(2);
    const second = await captureGifts(world.server, user.cookie, order.order_id);
    expect(await second.json()).toEqual(codes);
    expect(await rows(world, 'select count(*)::int as n from gift_codes where order_id = ?', [order.order_id])).toEqual([{ n: 2 }]);
  });

  it('answers 402 before approval and 400 for a premium order', async () => {
    const user = await login();
    const gift = await createOrder(world.server, user.cookie, { plan: '3m', gift_quantity: 1 });
    expect((await captureGifts(world.server, user.cookie, gift.order_id)).status).toBe(402);
    const premium = await createOrder(world.server, user.cookie, { plan: '3m' });
    await approveAsBuyer(premium.approval_url);
    expect((await captureGifts(world.server, user.cookie, premium.order_id)).status).toBe(400);
  });
});
