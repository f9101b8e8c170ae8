import { afterAll, beforeAll, expect, it } from 'vitest';
import { nextPlatformId } from '../lobby/lobby-client';
import { call } from '../identity/identity-fixtures';
import { approveAsBuyer, capture, createOrder, rows, startPremiumWorld, type PremiumWorld } from './premium-fixtures';

/**
 * PayPal's webhook: PAYMENT.CAPTURE.COMPLETED (the buyer paid but never came back to the site) and
 * CHECKOUT.ORDER.APPROVED (approved, never came back, not yet captured) complete the grant;
 * whichever of capture and webhook arrives first, one grant.
 */

let world: PremiumWorld;
let hook: string;

beforeAll(async () => {
  world = await startPremiumWorld();
  hook = `${world.server.url}/api/premium/paypal-webhook`;
});
afterAll(async () => world?.close());

const history = async (cookie: string) => (await call(world.server, '/api/premium/history', { cookie })).json() as Promise<unknown[]>;

/** An order the buyer approved and PayPal captured, without our server hearing of the capture. */
async function paidBehindOurBack() {
  const user = await world.server.login(nextPlatformId());
  const order = await createOrder(world.server, user.cookie, { plan: '6m' });
  await approveAsBuyer(order.approval_url);
  world.paypal.captureBehindOurBack(order.order_id);
  return { user, orderId: order.order_id };
}

it('grants premium from a verified PAYMENT.CAPTURE.COMPLETED when the buyer never came back', async () => {
  const { user, orderId } = await paidBehindOurBack();
  const delivered = await world.paypal.deliverWebhook(hook, world.paypal.captureCompletedEvent(orderId));
  expect(delivered.status).toBe(200);
  expect(await delivered.json()).toEqual({ ok: true });
  expect(await (await call(world.server, '/api/premium/status', { cookie: user.cookie })).json()).toMatchObject({
    active: true, plan: '6m', source: `paypal:${orderId}`,
  });
  const [order] = await rows(world, 'select status, completed_via, capture_id from premium_orders where id = ?', [orderId]);
  expect(order).toEqual({ status: 'completed', completed_via: 'webhook', capture_id: world.paypal.order(orderId)!.capture!.id });
});

it('grants once when the buyer comes back after the webhook and captures', async () => {
  const { user, orderId } = await paidBehindOurBack();
  await world.paypal.deliverWebhook(hook, world.paypal.captureCompletedEvent(orderId));
  const captured = await capture(world.server, user.cookie, orderId);
  expect(captured.status).toBe(200);
  expect(await history(user.cookie)).toHaveLength(1);
});

it('grants once when the webhook arrives after the capture, and again on a redelivery', async () => {
  const user = await world.server.login(nextPlatformId());
  const order = await createOrder(world.server, user.cookie, { plan: '3m' });
  await approveAsBuyer(order.approval_url);
  expect((await capture(world.server, user.cookie, order.order_id)).status).toBe(200);
  const event = world.paypal.captureCompletedEvent(order.order_id);
  expect((await world.paypal.deliverWebhook(hook, event)).status).toBe(200);
  expect((await world.paypal.deliverWebhook(hook, event)).status).toBe(200);
  expect(await history(user.cookie)).toHaveLength(1);
  const [row] = await rows(world, 'select completed_via from premium_orders where id = ?', [order.order_id]);
  expect(row.completed_via).toBe('capture');
});

it('refuses a delivery whose signature PayPal does not verify, and grants nothing', async () => {
  const { user, orderId } = await paidBehindOurBack();
  const forged = await world.paypal.deliverWebhook(hook, world.paypal.captureCompletedEvent(orderId), { forge: true });
  expect(forged.status).toBe(400);
  expect(await forged.json()).toEqual({ error: 'webhook signature not verified' });
  expect(await history(user.cookie)).toEqual([]);
});

it('refuses an event altered after PayPal signed it', async () => {
  const { user, orderId } = await paidBehindOurBack();
  const event = world.paypal.captureCompletedEvent(orderId) as { resource: { amount: { value: string } } };
  const body = JSON.stringify(event);
  // Re-sign nothing: deliver the genuine signature over the original, with a changed amount.
  const response = await world.paypal.deliverWebhook(hook, JSON.parse(body.replace(/"value":"8\.99"/g, '"value":"0.01"')), { forge: true });
  expect(response.status).toBe(400);
  expect(await history(user.cookie)).toEqual([]);
});

it('answers 502 when PayPal cannot verify the delivery, so PayPal delivers it again later', async () => {
  const { user, orderId } = await paidBehindOurBack();
  // The verification is a read, retried once: both tries fail.
  world.paypal.fail('verify', { status: 500 });
  world.paypal.fail('verify', 'hang');
  const response = await world.paypal.deliverWebhook(hook, world.paypal.captureCompletedEvent(orderId));
  expect(response.status, await response.clone().text()).toBe(502);
  expect(await history(user.cookie)).toEqual([]);
  expect((await world.paypal.deliverWebhook(hook, world.paypal.captureCompletedEvent(orderId))).status).toBe(200);
  expect(await history(user.cookie)).toHaveLength(1);
});

it('captures and grants on CHECKOUT.ORDER.APPROVED when the buyer approved but never came back', async () => {
  const user = await world.server.login(nextPlatformId());
  const order = await createOrder(world.server, user.cookie, { plan: '12m' });
  await approveAsBuyer(order.approval_url);
  const delivered = await world.paypal.deliverWebhook(hook, world.paypal.orderApprovedEvent(order.order_id));
  expect(delivered.status).toBe(200);
  expect(world.paypal.order(order.order_id)?.status).toBe('COMPLETED');
  expect(await (await call(world.server, '/api/premium/status', { cookie: user.cookie })).json()).toMatchObject({ active: true, plan: '12m' });
  // PayPal's PAYMENT.CAPTURE.COMPLETED for that capture follows, and the buyer comes back after all.
  expect((await world.paypal.deliverWebhook(hook, world.paypal.captureCompletedEvent(order.order_id))).status).toBe(200);
  expect((await capture(world.server, user.cookie, order.order_id)).status).toBe(200);
  expect(await history(user.cookie)).toHaveLength(1);
});

it('acknowledges CHECKOUT.ORDER.APPROVED for an order PayPal does not see as approved, granting nothing', async () => {
  const user = await world.server.login(nextPlatformId());
  const order = await createOrder(world.server, user.cookie, { plan: '3m' });
  const delivered = await world.paypal.deliverWebhook(hook, world.paypal.orderApprovedEvent(order.order_id));
  expect(delivered.status).toBe(200);
  expect(await history(user.cookie)).toEqual([]);
});

it('acknowledges verified events of other types without acting on them', async () => {
  const event = { id: 'WH-OTHER-1', event_type: 'PAYMENT.CAPTURE.REFUNDED', resource: { id: 'NOSUCHCAPTURE', status: 'COMPLETED' } };
  const response = await world.paypal.deliverWebhook(hook, event);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ ok: true });
});
