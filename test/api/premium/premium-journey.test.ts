import { afterAll, beforeAll, expect, it } from 'vitest';
import { planEnd } from '../../../src/domain/premium/plans';
import { call, issueKey, movableClock } from '../identity/identity-fixtures';
import { approveAsBuyer, buyPremium, captureGifts, createOrder, redeem, startPremiumWorld, type PremiumWorld } from './premium-fixtures';

/**
 * The issue's "Done means", as one user story over real HTTP against the fake PayPal: buy six
 * months, see status and history, buy three gift codes, another user redeems one, a second redeem
 * is 410, and a premium key issued meanwhile works until the grant lapses, then answers 403.
 */

const clock = movableClock();
let world: PremiumWorld;

beforeAll(async () => {
  world = await startPremiumWorld({ clock: clock.now });
});
afterAll(async () => world?.close());

it('buys premium and gift codes, redeems one once, and the premium key lapses with the grant', async () => {
  const { server, paypal } = world;
  const buyer = await server.login('76561198000000401');
  const friend = await server.login('76561198000000402');

  // Six months through PayPal.
  const bought = await buyPremium(server, buyer.cookie, '6m');
  const expiresAt = new Date(bought.status.expires_at as string);
  expect(bought.status).toEqual({ active: true, plan: '6m', expires_at: expiresAt.toISOString(), source: `paypal:${bought.orderId}` });
  expect(Math.abs(expiresAt.getTime() - planEnd('6m', new Date(clock.now())).getTime())).toBeLessThan(5_000);
  expect(paypal.order(bought.orderId)).toMatchObject({ status: 'COMPLETED', amount: { currency_code: 'EUR', value: '8.99' } });

  const status = await call(server, '/api/premium/status', { cookie: buyer.cookie });
  expect(await status.json()).toEqual(bought.status);
  const history = await call(server, '/api/premium/history', { cookie: buyer.cookie });
  expect(await history.json()).toEqual([
    { plan: '6m', source: `paypal:${bought.orderId}`, granted_at: expect.any(String), expires_at: expiresAt.toISOString() },
  ]);

  // A premium key, issued while premium.
  const key = await issueKey(server, buyer.cookie, 'premium');
  expect((await call(server, '/api/premium/api-keys/current', { bearer: key.raw })).status).toBe(200);

  // Three gift codes of three months.
  const giftOrder = await createOrder(server, buyer.cookie, { plan: '3m', gift_quantity: 3 });
  expect(paypal.order(giftOrder.order_id)?.amount).toEqual({ currency_code: 'EUR', value: '14.97' });
  await approveAsBuyer(giftOrder.approval_url);
  const gifts = await captureGifts(server, buyer.cookie, giftOrder.order_id);
  expect(gifts.status).toBe(200);
  const codes = (await gifts.json()) as Array<{ code: string; plan: string; status: string }>;
  expect(codes).toHaveLength(3);
  for (const code of codes) {
    expect(code).toMatchObject({ plan: '3m', status: 'active', redeemed_by: null, redeemed_at: null });
    expect(code.code).toMatch(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/);
  }
  // Buying gift codes gave the buyer nothing themselves.
  expect(await (await call(server, '/api/premium/history', { cookie: buyer.cookie })).json()).toHaveLength(1);

  // The friend redeems one; a second redeem of the same code is gone.
  const redeemed = await redeem(server, friend.cookie, codes[0].code);
  expect(redeemed.status).toBe(200);
  expect(await redeemed.json()).toMatchObject({ active: true, plan: '3m', source: `gift:${codes[0].code}` });
  const again = await redeem(server, friend.cookie, codes[0].code);
  expect(again.status).toBe(410);
  expect(await again.json()).toEqual({ error: expect.stringContaining('redeemed') });

  // Both see the code: the buyer as bought, the friend as received.
  const buyerCodes = (await (await call(server, '/api/premium/gift-codes', { cookie: buyer.cookie })).json()) as Array<{ code: string; status: string; redeemed_by: number | null }>;
  expect(buyerCodes).toHaveLength(3);
  expect(buyerCodes.find((c) => c.code === codes[0].code)).toMatchObject({ status: 'redeemed', redeemed_by: friend.user.id });
  const friendCodes = await (await call(server, '/api/premium/gift-codes', { cookie: friend.cookie })).json();
  expect(friendCodes).toEqual([expect.objectContaining({ code: codes[0].code, status: 'redeemed' })]);

  // The key works until the grant lapses, and answers 403 the moment it has.
  clock.advanceMs(expiresAt.getTime() - clock.now() - 1_000);
  expect((await call(server, '/api/premium/api-keys/current', { bearer: key.raw })).status).toBe(200);
  clock.advanceMs(1_001);
  const lapsed = await call(server, '/api/premium/api-keys/current', { bearer: key.raw });
  expect(lapsed.status).toBe(403);
  expect(await lapsed.json()).toEqual({ error: 'premium membership has lapsed' });
  // Premium-only session routes read the same clock: no new key once premium has ended.
  expect((await call(server, '/api/premium/api-keys', { method: 'POST', cookie: buyer.cookie, body: {} })).status).toBe(403);
  expect(await (await call(server, '/api/premium/status', { cookie: buyer.cookie })).json()).toEqual({
    active: false, plan: null, expires_at: null, source: null,
  });
});
