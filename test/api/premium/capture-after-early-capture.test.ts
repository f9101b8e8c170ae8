import { afterAll, beforeAll, expect, it } from 'vitest';
import { nextPlatformId } from '../lobby/lobby-client';
import { call } from '../identity/identity-fixtures';
import { approveAsBuyer, capture, createOrder, startPremiumWorld, type PremiumWorld } from './premium-fixtures';

/**
 * PayPal answers a repeated PayPal-Request-Id with its first answer, a refusal included (the fake
 * does too). A capture tried before the buyer approved must therefore not fix the id of every later
 * capture: each attempt that got a definitive answer takes a new one (issue 21, item 6).
 */

let world: PremiumWorld;

beforeAll(async () => {
  world = await startPremiumWorld();
});
afterAll(async () => world?.close());

const status = async (cookie: string) => (await call(world.server, '/api/premium/status', { cookie })).json();

it('captures an order approved after an early capture was answered 402', async () => {
  const user = await world.server.login(nextPlatformId());
  const order = await createOrder(world.server, user.cookie, { plan: '3m' });
  expect((await capture(world.server, user.cookie, order.order_id)).status).toBe(402);
  await approveAsBuyer(order.approval_url);
  const captured = await capture(world.server, user.cookie, order.order_id);
  expect(captured.status, await captured.clone().text()).toBe(200);
  expect(await captured.json()).toMatchObject({ active: true, plan: '3m', source: `paypal:${order.order_id}` });
  expect(world.paypal.order(order.order_id)?.status).toBe('COMPLETED');
});

it("captures on PayPal's CHECKOUT.ORDER.APPROVED after an early capture was answered 402", async () => {
  const user = await world.server.login(nextPlatformId());
  const order = await createOrder(world.server, user.cookie, { plan: '6m' });
  expect((await capture(world.server, user.cookie, order.order_id)).status).toBe(402);
  await approveAsBuyer(order.approval_url);
  const delivered = await world.paypal.deliverWebhook(`${world.server.url}/api/premium/paypal-webhook`, world.paypal.orderApprovedEvent(order.order_id));
  expect(delivered.status).toBe(200);
  expect(await status(user.cookie)).toMatchObject({ active: true, plan: '6m', source: `paypal:${order.order_id}` });
});

it('captures once when two captures of one approved order race, each with its own request id', async () => {
  const user = await world.server.login(nextPlatformId());
  const order = await createOrder(world.server, user.cookie, { plan: '3m' });
  await approveAsBuyer(order.approval_url);
  const answers = await Promise.all([capture(world.server, user.cookie, order.order_id), capture(world.server, user.cookie, order.order_id)]);
  expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
  const history = await (await call(world.server, '/api/premium/history', { cookie: user.cookie })).json();
  expect(history).toHaveLength(1);
});
