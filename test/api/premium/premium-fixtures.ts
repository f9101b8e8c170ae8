import { expect } from 'vitest';
import type { ServerOptions } from '../../../src/main';
import { startFakePayPal, type FakePayPal } from '../../fakes/fake-paypal';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { call } from '../identity/identity-fixtures';

export interface PremiumWorld {
  server: TestServerWithLogin;
  paypal: FakePayPal;
  close(): Promise<void>;
}

/** The env that points a server at the fake PayPal (also for second server processes). */
export function paypalEnv(paypal: FakePayPal, timeoutMs = 1_500): Record<string, string> {
  return {
    PAYPAL_API_URL: paypal.url,
    PAYPAL_CLIENT_ID: paypal.clientId,
    PAYPAL_CLIENT_SECRET: paypal.clientSecret,
    PAYPAL_WEBHOOK_ID: paypal.webhookId,
    PAYPAL_TIMEOUT_MS: String(timeoutMs),
    PREMIUM_PRICE_3M: '4.99',
    PREMIUM_PRICE_6M: '8.99',
    PREMIUM_PRICE_12M: '14.99',
    PREMIUM_CURRENCY: 'EUR',
  };
}

export async function startPremiumWorld(options: Partial<ServerOptions> = {}, env: Record<string, string> = {}): Promise<PremiumWorld> {
  const paypal = await startFakePayPal();
  const server = await startTestServerWithLogin({ ...paypalEnv(paypal), ...env }, options);
  return {
    server,
    paypal,
    async close() {
      await server.close();
      await paypal.close();
    },
  };
}

/** POST create-order and return its answer's body (asserting 200). */
export async function createOrder(server: { url: string }, cookie: string, body: Record<string, unknown>): Promise<{ order_id: string; approval_url: string }> {
  const response = await call(server, '/api/premium/create-order', { method: 'POST', cookie, body });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

/** The buyer's part: open the approval link at PayPal, which approves and sends the browser back. */
export async function approveAsBuyer(approvalUrl: string): Promise<URL> {
  const response = await fetch(approvalUrl, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

export const capture = (server: { url: string }, cookie: string, orderId: string) =>
  call(server, '/api/premium/capture-order', { method: 'POST', cookie, body: { order_id: orderId } });

export const captureGifts = (server: { url: string }, cookie: string, orderId: string) =>
  call(server, '/api/premium/gift-codes/capture-paypal', { method: 'POST', cookie, body: { order_id: orderId } });

export const redeem = (server: { url: string }, cookie: string | undefined, code: string) =>
  call(server, '/api/premium/gift-codes/redeem', { method: 'POST', cookie, body: { code } });

/** Creates, approves and captures a premium order; returns the capture's answer body. */
export async function buyPremium(server: { url: string }, cookie: string, plan: string): Promise<{ orderId: string; status: Record<string, unknown> }> {
  const order = await createOrder(server, cookie, { plan });
  await approveAsBuyer(order.approval_url);
  const response = await capture(server, cookie, order.order_id);
  expect(response.status, await response.clone().text()).toBe(200);
  return { orderId: order.order_id, status: await response.json() };
}

/** A SQL read straight from the test's database, for what an operator would see. */
export async function rows(world: PremiumWorld, sql: string, params: unknown[] = []): Promise<Array<Record<string, any>>> {
  return world.server.server.db.em().execute(sql, params);
}
