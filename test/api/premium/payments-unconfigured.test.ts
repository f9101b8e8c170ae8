import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { call } from '../identity/identity-fixtures';

/** Without PayPal credentials the purchase routes say so (503); the rest of premium still answers. */

let server: TestServerWithLogin;

beforeAll(async () => {
  server = await startTestServerWithLogin();
});
afterAll(async () => server?.close());

it('answers 503 to create-order and the webhook, and still shows status and history', async () => {
  const user = await server.login('76561198000000451');
  const created = await call(server, '/api/premium/create-order', { method: 'POST', cookie: user.cookie, body: { plan: '3m' } });
  expect(created.status).toBe(503);
  expect(await created.json()).toEqual({ error: 'payments are not configured on this server' });
  const hook = await call(server, '/api/premium/paypal-webhook', { method: 'POST', body: { id: 'WH-1', event_type: 'PAYMENT.CAPTURE.COMPLETED' } });
  expect(hook.status).toBe(503);
  expect((await call(server, '/api/premium/status', { cookie: user.cookie })).status).toBe(200);
  expect(await (await call(server, '/api/premium/history', { cookie: user.cookie })).json()).toEqual([]);
});
