import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { signDelivery, transmissionSignature, webhookEvent } from './fake-paypal-events';
import { listenLocally, readForm, redirect, sendJson, type LocalServer } from './local-http-server';

/**
 * PayPal's REST API as our server uses it, on PayPal's own paths and JSON: OAuth 2.0 client
 * credentials (POST /v1/oauth2/token, Basic auth), Orders v2 (create 201 with links, show,
 * capture 201 COMPLETED or 422 ORDER_NOT_APPROVED / ORDER_ALREADY_CAPTURED), Payments v2 refunds
 * (POST /v2/payments/captures/{id}/refund: 201 with the refund's id, 422 CAPTURE_FULLY_REFUNDED),
 * PayPal-Request-Id replay on create, capture and refund, and Notifications v1 verify-webhook-signature. The buyer's side is
 * the approval page: GET on the `payer-action` link approves the order and redirects to the
 * return URL, as PayPal does once the buyer pays. Webhook deliveries: fake-paypal-events.ts.
 */

export type FakeCall = 'token' | 'create' | 'show' | 'capture' | 'verify' | 'refund';
/** `status`: answer with this 5xx; `hang`: never answer; `lose_answer`: do the work, never answer. */
export type Fault = { status: number } | 'hang' | 'lose_answer';

interface FakeOrder {
  id: string;
  status: 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED';
  amount: { currency_code: string; value: string };
  customId: string;
  description: string;
  returnUrl: string;
  createTime: string;
  capture?: { id: string; status: 'COMPLETED' | 'REFUNDED'; createTime: string };
}

export interface FakeRefund {
  id: string;
  captureId: string;
  orderId: string;
  amount: { currency_code: string; value: string };
  requestId: string | undefined;
}

export interface FakePayPal extends LocalServer {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  /** How many tokens, orders and captures were really made (replays and refusals do not count). */
  counts: { tokens: number; orders: number; captures: number; refunds: number };
  order(id: string): Readonly<FakeOrder> | undefined;
  /** Every refund really made, in order (replays and refusals are not). */
  refunds: readonly FakeRefund[];
  /** Every refund call that reached PayPal, answered or not, with its PayPal-Request-Id. */
  refundCalls: readonly { captureId: string; requestId: string | undefined }[];
  /** The next `call` meets this fault (once per queued fault). */
  fail(call: FakeCall, fault: Fault): void;
  /** The buyer approves on PayPal's page without a browser (the approval link does the same over HTTP). */
  approve(orderId: string): void;
  /** Captures as PayPal would for a capture our server never heard back from. */
  captureBehindOurBack(orderId: string): void;
  /** The CHECKOUT.ORDER.APPROVED event PayPal sends once the buyer approved. */
  orderApprovedEvent(orderId: string): Record<string, unknown>;
  /** The PAYMENT.CAPTURE.COMPLETED event of a captured order, as PayPal sends it. */
  captureCompletedEvent(orderId: string): Record<string, unknown>;
  /** The PAYMENT.CAPTURE.REFUNDED event of a refund, as PayPal sends it (the resource is the refund). */
  refundedEvent(refundId: string): Record<string, unknown>;
  /** An event as PayPal would POST it: the body and its transmission headers; `forge` signs with the wrong key. */
  signedDelivery(event: Record<string, unknown>, options?: { forge?: boolean }): { headers: Record<string, string>; body: string };
  /** POSTs an event to `url` as `signedDelivery` builds it. */
  deliverWebhook(url: string, event: Record<string, unknown>, options?: { forge?: boolean }): Promise<Response>;
}

export interface FakePayPalOptions {
  tokenLifetimeS?: number;
}

const UNPROCESSABLE = 'The requested action could not be performed, semantically incorrect, or failed business validation.';

export async function startFakePayPal(options: FakePayPalOptions = {}): Promise<FakePayPal> {
  const clientId = `fake-client-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(16).toString('hex');
  const webhookId = `WH-${randomBytes(8).toString('hex').toUpperCase()}`;
  const signingKey = randomBytes(32);
  const tokens = new Set<string>();
  const orders = new Map<string, FakeOrder>();
  const replays = new Map<string, { status: number; body: unknown }>();
  const faults = new Map<FakeCall, Fault[]>();
  const counts = { tokens: 0, orders: 0, captures: 0, refunds: 0 };
  const refunds: FakeRefund[] = [];
  const refundCalls: { captureId: string; requestId: string | undefined }[] = [];
  let origin = '';
  const id = (n = 17) => randomBytes(n).toString('hex').toUpperCase().slice(0, n);
  const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

  const orderJson = (order: FakeOrder) => ({
    id: order.id,
    intent: 'CAPTURE',
    status: order.status,
    create_time: order.createTime,
    purchase_units: [
      {
        reference_id: 'default',
        amount: order.amount,
        custom_id: order.customId,
        description: order.description,
        ...(order.capture
          ? {
              payments: {
                captures: [
                  {
                    id: order.capture.id,
                    status: order.capture.status,
                    amount: order.amount,
                    final_capture: true,
                    custom_id: order.customId,
                    create_time: order.capture.createTime,
                    update_time: order.capture.createTime,
                  },
                ],
              },
            }
          : {}),
      },
    ],
    links: [
      { href: `${origin}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' },
      ...(order.status === 'PAYER_ACTION_REQUIRED' ? [{ href: `${origin}/checkoutnow?token=${order.id}`, rel: 'payer-action', method: 'GET' }] : []),
    ],
  });

  const refundJson = (refund: FakeRefund) => ({
    id: refund.id,
    status: 'COMPLETED',
    amount: refund.amount,
    links: [
      { href: `${origin}/v2/payments/refunds/${refund.id}`, rel: 'self', method: 'GET' },
      { href: `${origin}/v2/payments/captures/${refund.captureId}`, rel: 'up', method: 'GET' },
    ],
  });

  const unprocessable = (issue: string, description: string) => ({
    status: 422,
    body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue, description }], message: UNPROCESSABLE, debug_id: id(13).toLowerCase() },
  });
  const notFound = () => ({
    status: 404,
    body: { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID', description: 'Specified resource ID does not exist.' }], message: 'The specified resource does not exist.', debug_id: id(13).toLowerCase() },
  });

  const capture = (order: FakeOrder) => {
    order.status = 'COMPLETED';
    order.capture = { id: id(17), status: 'COMPLETED', createTime: now() };
    counts.captures++;
  };

  const signature = (transmissionId: string, time: string, body: string, key: Buffer) =>
    transmissionSignature({ transmissionId, time, webhookId, body }, key);

  const readJson = async (request: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text === '' ? {} : JSON.parse(text);
  };

  const bearerOk = (request: IncomingMessage) => tokens.has(/^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '');
  const basicOk = (request: IncomingMessage) =>
    request.headers.authorization === `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;

  /** Applies a queued fault: true when the request was dealt with (or left hanging). */
  const faulted = (call: FakeCall, response: ServerResponse, work: () => void): boolean => {
    const fault = faults.get(call)?.shift();
    if (!fault) return false;
    if (fault === 'hang') return true;
    if (fault === 'lose_answer') {
      work();
      return true;
    }
    sendJson(response, fault.status, { name: 'INTERNAL_SERVER_ERROR', message: 'An internal server error occurred.', debug_id: id(13).toLowerCase() });
    return true;
  };

  /**
   * Create and capture: the same PayPal-Request-Id gets the first answer again, without acting
   * twice, a refusal (422 ORDER_NOT_APPROVED) as much as a success, as PayPal does; only a 5xx is
   * not kept, so a retry of a failed try acts.
   */
  const idempotent = (request: IncomingMessage, response: ServerResponse, call: FakeCall, act: () => { status: number; body: unknown }) => {
    const requestId = request.headers['paypal-request-id'];
    const key = typeof requestId === 'string' ? `${call}:${requestId}` : null;
    let answer: { status: number; body: unknown } | undefined;
    const work = () => {
      answer = (key ? replays.get(key) : undefined) ?? act();
      if (key && answer.status < 500) replays.set(key, answer);
    };
    // A fault is the network's or PayPal's front door: it can meet a replay as well as a first try.
    if (faulted(call, response, work)) return;
    work();
    sendJson(response, answer!.status, answer!.body);
  };

  const server = await listenLocally(async (request, response, url) => {
    const path = url.pathname;
    if (request.method === 'POST' && path === '/v1/oauth2/token') {
      const form = await readForm(request);
      if (faulted('token', response, () => undefined)) return;
      if (!basicOk(request)) return sendJson(response, 401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
      if (form.get('grant_type') !== 'client_credentials') return sendJson(response, 400, { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' });
      const token = `A21AA${randomBytes(24).toString('base64url')}`;
      tokens.add(token);
      counts.tokens++;
      return sendJson(response, 200, {
        scope: 'https://uri.paypal.com/services/payments/payment',
        access_token: token,
        token_type: 'Bearer',
        app_id: 'APP-80W284485P519543T',
        expires_in: options.tokenLifetimeS ?? 32_400,
        nonce: `${now()}${id(8)}`,
      });
    }
    if (request.method === 'GET' && path === '/checkoutnow') {
      const order = orders.get(url.searchParams.get('token') ?? '');
      if (!order) return sendJson(response, 404, { error: 'no such order' });
      if (order.status === 'PAYER_ACTION_REQUIRED') order.status = 'APPROVED';
      const back = new URL(order.returnUrl);
      back.searchParams.set('token', order.id);
      back.searchParams.set('PayerID', 'FAKEPAYER01');
      return redirect(response, back);
    }
    if (!bearerOk(request)) {
      return sendJson(response, 401, { error: 'invalid_token', error_description: 'Token signature verification failed' });
    }
    if (request.method === 'POST' && path === '/v2/checkout/orders') {
      const body = (await readJson(request)) as {
        purchase_units?: Array<{ amount?: { currency_code?: string; value?: string }; custom_id?: string; description?: string }>;
        payment_source?: { paypal?: { experience_context?: { return_url?: string } } };
      };
      const unit = body.purchase_units?.[0];
      const returnUrl = body.payment_source?.paypal?.experience_context?.return_url;
      if (!unit?.amount?.currency_code || !/^\d+(\.\d{2})?$/.test(unit.amount.value ?? '') || !returnUrl) {
        return sendJson(response, 400, { name: 'INVALID_REQUEST', details: [{ issue: 'MISSING_REQUIRED_PARAMETER' }], message: 'Request is not well-formed, syntactically incorrect, or violates schema.' });
      }
      return idempotent(request, response, 'create', () => {
        const order: FakeOrder = {
          id: id(17),
          status: 'PAYER_ACTION_REQUIRED',
          amount: { currency_code: unit.amount!.currency_code!, value: unit.amount!.value! },
          customId: unit.custom_id ?? '',
          description: unit.description ?? '',
          returnUrl,
          createTime: now(),
        };
        orders.set(order.id, order);
        counts.orders++;
        return { status: 201, body: orderJson(order) };
      });
    }
    const orderPath = /^\/v2\/checkout\/orders\/([A-Z0-9]+)(\/capture)?$/.exec(path);
    if (orderPath && request.method === 'GET' && !orderPath[2]) {
      const order = orders.get(orderPath[1]);
      if (faulted('show', response, () => undefined)) return;
      return order ? sendJson(response, 200, orderJson(order)) : sendJson(response, 404, notFound().body);
    }
    if (orderPath && request.method === 'POST' && orderPath[2]) {
      await readJson(request);
      return idempotent(request, response, 'capture', () => {
        const order = orders.get(orderPath[1]);
        if (!order) return notFound();
        if (order.status === 'PAYER_ACTION_REQUIRED') return unprocessable('ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.');
        if (order.status === 'COMPLETED') return unprocessable('ORDER_ALREADY_CAPTURED', 'Order already captured.If \'intent=CAPTURE\' only one capture per order is allowed.');
        capture(order);
        return { status: 201, body: orderJson(order) };
      });
    }
    const refundPath = /^\/v2\/payments\/captures\/([A-Z0-9]+)\/refund$/.exec(path);
    if (refundPath && request.method === 'POST') {
      await readJson(request);
      const header = request.headers['paypal-request-id'];
      const requestId = typeof header === 'string' ? header : undefined;
      refundCalls.push({ captureId: refundPath[1]!, requestId });
      return idempotent(request, response, 'refund', () => {
        const order = [...orders.values()].find((o) => o.capture?.id === refundPath[1]);
        if (!order?.capture) return notFound();
        if (order.capture.status === 'REFUNDED') return unprocessable('CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded');
        order.capture.status = 'REFUNDED';
        const refund: FakeRefund = { id: id(17), captureId: order.capture.id, orderId: order.id, amount: order.amount, requestId };
        refunds.push(refund);
        counts.refunds++;
        return { status: 201, body: refundJson(refund) };
      });
    }
    if (request.method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
      const body = (await readJson(request)) as Record<string, unknown>;
      if (faulted('verify', response, () => undefined)) return;
      const event = JSON.stringify(body.webhook_event ?? null);
      const expected = signature(String(body.transmission_id), String(body.transmission_time), event, signingKey);
      const genuine = body.webhook_id === webhookId && body.auth_algo === 'SHA256withRSA' && body.transmission_sig === expected;
      return sendJson(response, 200, { verification_status: genuine ? 'SUCCESS' : 'FAILURE' });
    }
    sendJson(response, 404, notFound().body);
  });
  origin = server.url;

  const mustFind = (orderId: string) => {
    const order = orders.get(orderId);
    if (!order) throw new Error(`the fake PayPal has no order ${orderId}`);
    return order;
  };

  const signedDelivery: FakePayPal['signedDelivery'] = (event, deliverOptions = {}) =>
    signDelivery(event, { webhookId, key: deliverOptions.forge ? randomBytes(32) : signingKey, certUrl: `${origin}/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77` });

  return {
    ...server,
    clientId,
    clientSecret,
    webhookId,
    counts,
    refunds,
    refundCalls,
    order: (orderId) => orders.get(orderId),
    fail(call, fault) {
      faults.set(call, [...(faults.get(call) ?? []), fault]);
    },
    approve(orderId) {
      const order = mustFind(orderId);
      if (order.status === 'PAYER_ACTION_REQUIRED') order.status = 'APPROVED';
    },
    captureBehindOurBack(orderId) {
      const order = mustFind(orderId);
      if (order.status !== 'APPROVED') throw new Error(`order ${orderId} is ${order.status}, not APPROVED`);
      capture(order);
    },
    orderApprovedEvent(orderId) {
      const order = mustFind(orderId);
      const resource = { ...orderJson(order), payer: { payer_id: 'FAKEPAYER01', email_address: 'buyer@example.com' } };
      return webhookEvent('CHECKOUT.ORDER.APPROVED', 'checkout-order', 'An order has been approved by buyer', resource);
    },
    captureCompletedEvent(orderId) {
      const order = mustFind(orderId);
      if (!order.capture) throw new Error(`order ${orderId} has no capture`);
      return webhookEvent('PAYMENT.CAPTURE.COMPLETED', 'capture', `Payment completed for ${order.amount.currency_code} ${order.amount.value}`, {
        id: order.capture.id,
        status: 'COMPLETED',
        amount: order.amount,
        final_capture: true,
        custom_id: order.customId,
        seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
        supplementary_data: { related_ids: { order_id: order.id } },
        create_time: order.capture.createTime,
        update_time: order.capture.createTime,
        links: [{ href: `${origin}/v2/payments/captures/${order.capture.id}`, rel: 'self', method: 'GET' }],
      });
    },
    refundedEvent(refundId) {
      const refund = refunds.find((r) => r.id === refundId);
      if (!refund) throw new Error(`the fake PayPal has no refund ${refundId}`);
      return webhookEvent('PAYMENT.CAPTURE.REFUNDED', 'refund', `A ${refund.amount.currency_code} ${refund.amount.value} capture payment was refunded`, {
        ...refundJson(refund),
        create_time: now(),
        update_time: now(),
      });
    },
    signedDelivery,
    async deliverWebhook(target, event, deliverOptions = {}) {
      const { headers, body } = signedDelivery(event, deliverOptions);
      return fetch(target, { method: 'POST', headers, body });
    },
  };
}
