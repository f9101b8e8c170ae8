import { afterAll, beforeAll, expect, it } from 'vitest';
import { planEnd } from '../../../src/domain/premium/plans';
import { nextPlatformId } from '../lobby/lobby-client';
import { call, movableClock } from '../identity/identity-fixtures';
import { approveAsBuyer, buyPremium, captureGifts, createOrder, redeem, rows, startPremiumWorld, type PremiumWorld } from './premium-fixtures';

/** Gift codes: bought through PayPal, listed for buyer and redeemer, redeemed once. */

const clock = movableClock();
let world: PremiumWorld;

beforeAll(async () => {
  world = await startPremiumWorld({ clock: clock.now });
});
afterAll(async () => world?.close());

const login = () => world.server.login(nextPlatformId());

async function buyCodes(plan: string, quantity: number): Promise<string[]> {
  const buyer = await login();
  const order = await createOrder(world.server, buyer.cookie, { plan, gift_quantity: quantity });
  await approveAsBuyer(order.approval_url);
  const response = await captureGifts(world.server, buyer.cookie, order.order_id);
  expect(response.status).toBe(200);
  return ((await response.json()) as Array<{ code: string }>).map((c) => c.code);
}

it('answers 401 to a redeem without a login, before looking at the code', async () => {
  const [code] = await buyCodes('3m', 1);
  for (const body of [code, 'not-a-code']) {
    const response = await redeem(world.server, undefined, body);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: expect.stringContaining('login required') });
  }
  expect(await rows(world, 'select status from gift_codes where code = ?', [code])).toEqual([{ status: 'active' }]);
});

it('answers 400 to a code that is not four groups of four letters or digits', async () => {
  const user = await login();
  for (const code of ['ABCD-EFGH-IJKL', 'abcd-efgh-ijkl-mnop', 'ABCD_EFGH_IJKL_MNOP', 'ABCD-EFGH-IJKL-MNOPQ']) {
    const response = await redeem(world.server, user.cookie, code);
    expect(response.status, code).toBe(400);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  }
  const missing = await call(world.server, '/api/premium/gift-codes/redeem', { method: 'POST', cookie: user.cookie, body: {} });
  expect(missing.status).toBe(400);
});

it('answers 404 to a well-formed code nobody bought', async () => {
  const user = await login();
  const response = await redeem(world.server, user.cookie, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ');
  expect(response.status).toBe(404);
  expect(await response.json()).toEqual({ error: 'no such gift code' });
});

it('grants the code’s plan to the redeemer, extending from their current expiry', async () => {
  const [code] = await buyCodes('12m', 1);
  const user = await login();
  const own = await buyPremium(world.server, user.cookie, '3m');
  const ownEnd = new Date(own.status.expires_at as string);
  const response = await redeem(world.server, user.cookie, code);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ active: true, plan: '3m', expires_at: planEnd('12m', ownEnd).toISOString(), source: `paypal:${own.orderId}` });
  const history = await (await call(world.server, '/api/premium/history', { cookie: user.cookie })).json();
  expect(history[0]).toEqual({ plan: '12m', source: `gift:${code}`, granted_at: ownEnd.toISOString(), expires_at: planEnd('12m', ownEnd).toISOString() });
});

it('answers 410 to a revoked code', async () => {
  const [code] = await buyCodes('3m', 1);
  // Revoking is an admin action of its own issue; the row is what it will write.
  await rows(world, "update gift_codes set status = 'revoked' where code = ?", [code]);
  const user = await login();
  const response = await redeem(world.server, user.cookie, code);
  expect(response.status).toBe(410);
  expect(await response.json()).toEqual({ error: 'this gift code is revoked' });
});

it('lists nothing for a user who neither bought nor redeemed a code', async () => {
  const user = await login();
  expect(await (await call(world.server, '/api/premium/gift-codes', { cookie: user.cookie })).json()).toEqual([]);
});

it('answers 410 to a code past its expiry and lists it as expired', async () => {
  const buyer = await login();
  const order = await createOrder(world.server, buyer.cookie, { plan: '6m', gift_quantity: 1 });
  await approveAsBuyer(order.approval_url);
  const [bought] = (await (await captureGifts(world.server, buyer.cookie, order.order_id)).json()) as Array<{ code: string; expires_at: string }>;
  // Logged in first: the fake identity provider's nonces live in real time, not the server's.
  const user = await login();
  clock.advanceMs(new Date(bought.expires_at).getTime() - clock.now());
  const response = await redeem(world.server, user.cookie, bought.code);
  expect(response.status).toBe(410);
  expect(await response.json()).toEqual({ error: 'this gift code is expired' });
  const listed = await (await call(world.server, '/api/premium/gift-codes', { cookie: buyer.cookie })).json();
  expect(listed).toEqual([expect.objectContaining({ code: bought.code, status: 'expired', redeemed_by: null })]);
});
