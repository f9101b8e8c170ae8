import * as v from 'valibot';
import { ErrorBody, Order, Refund, TokenResponse, VerifySignatureResponse, WEBHOOK_HEADERS } from './paypal-wire';

/**
 * A small typed client of PayPal's REST API: OAuth 2.0 client credentials, Orders v2 (create,
 * show, capture) and Notifications v1 (verify-webhook-signature). The base URL is configuration,
 * so tests point it at a local fake speaking the same JSON.
 *
 * Every call has a timeout. Create and capture carry a `PayPal-Request-Id`, PayPal's idempotency
 * key: a retry with the same id is answered with the first call's result instead of acting twice,
 * which is what makes retrying a timed-out create or capture safe.
 */

/** PayPal could not be reached or answered in a way we cannot act on: the caller answers 502. */
export class PaymentProviderError extends Error {
  readonly status = 502;
  readonly expose = true;
  constructor(message: string, readonly detail?: string) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}

export interface PayPalClientOptions {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  clock: () => number;
  fetch?: typeof fetch;
}

export interface CreateOrderInput {
  requestId: string;
  amount: string;
  currency: string;
  description: string;
  /** Ours, echoed back on the capture: lets an operator find the order from PayPal's side. */
  customId: string;
  returnUrl: string;
  cancelUrl: string;
}

export interface CreatedOrder {
  id: string;
  approvalUrl: string;
}

export interface CompletedCapture {
  captureId: string;
  status: string;
  amount: string;
  currency: string;
}

export interface RefundInput {
  captureId: string;
  /** This refund's own idempotency key: the retry of an unanswered try reuses it, a new attempt after a refusal does not. */
  requestId: string;
  amount: string;
  currency: string;
  /** Ours, shown to the buyer and echoed on the refund. */
  invoiceId: string;
  note: string;
}

export type RefundResult = { kind: 'refunded'; refundId: string; status: string } | { kind: 'refused'; issue: string };

export type CaptureResult =
  | { kind: 'captured'; capture: CompletedCapture }
  | { kind: 'not_approved' }
  | { kind: 'already_captured' };

/** Re-fetch the token this long before PayPal says it expires, so none is used at its last second. */
const TOKEN_MARGIN_MS = 60_000;

interface Answer {
  status: number;
  body: unknown;
}

export class PayPalClient {
  private token: { value: string; until: number } | null = null;
  private tokenRequest: Promise<string> | null = null;
  private readonly base: string;
  private readonly doFetch: typeof fetch;

  constructor(private readonly options: PayPalClientOptions) {
    this.base = options.apiUrl.replace(/\/+$/, '');
    this.doFetch = options.fetch ?? fetch;
  }

  async createOrder(input: CreateOrderInput): Promise<CreatedOrder> {
    const answer = await this.api('POST', '/v2/checkout/orders', {
      intent: 'CAPTURE',
      purchase_units: [
        { custom_id: input.customId, description: input.description, amount: { currency_code: input.currency, value: input.amount } },
      ],
      payment_source: {
        paypal: {
          experience_context: { return_url: input.returnUrl, cancel_url: input.cancelUrl, user_action: 'PAY_NOW', shipping_preference: 'NO_SHIPPING' },
        },
      },
    }, input.requestId);
    if (answer.status !== 200 && answer.status !== 201) throw unexpected('create order', answer);
    const order = parse(Order, answer.body, 'create order');
    const approval = order.links.find((link) => link.rel === 'payer-action' || link.rel === 'approve');
    if (!approval) throw new PaymentProviderError('the payment provider returned no approval link');
    return { id: order.id, approvalUrl: approval.href };
  }

  /**
   * Captures an approved order. `requestId` is this attempt's: it is reused here only to retry a
   * try that got no answer (timeout, 5xx). PayPal answers a repeated id with its first answer, a
   * refusal too, so the caller takes a new one for every attempt.
   */
  async captureOrder(orderId: string, requestId: string): Promise<CaptureResult> {
    const answer = await this.api('POST', `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`, {}, requestId);
    if (answer.status === 200 || answer.status === 201) return { kind: 'captured', capture: completedCapture(parse(Order, answer.body, 'capture')) };
    const issue = issueOf(answer);
    if (answer.status === 422 && issue === 'ORDER_NOT_APPROVED') return { kind: 'not_approved' };
    if (answer.status === 422 && issue === 'ORDER_ALREADY_CAPTURED') return { kind: 'already_captured' };
    throw unexpected('capture', answer);
  }

  /**
   * Refunds a capture (POST /v2/payments/captures/{id}/refund). A 4xx is PayPal's definitive
   * refusal (answered, not to be replayed with this id); no answer or a 5xx throws
   * PaymentProviderError, and the caller retries with the same request id.
   */
  async refundCapture(input: RefundInput): Promise<RefundResult> {
    const answer = await this.api('POST', `/v2/payments/captures/${encodeURIComponent(input.captureId)}/refund`, {
      amount: { value: input.amount, currency_code: input.currency },
      invoice_id: input.invoiceId,
      note_to_payer: input.note,
    }, input.requestId);
    if (answer.status === 200 || answer.status === 201) {
      const refund = parse(Refund, answer.body, 'refund');
      return { kind: 'refunded', refundId: refund.id, status: refund.status };
    }
    if (answer.status >= 400 && answer.status < 500) return { kind: 'refused', issue: issueOf(answer) ?? `HTTP ${answer.status}` };
    throw unexpected('refund', answer);
  }

  /**
   * Captures an approved order with a new request id for this attempt (a repeated one would
   * replay an early refusal), and when it was captured before (another instance, a try whose
   * answer was lost) reads PayPal's record of that capture. Null: the buyer has not approved yet.
   */
  async captureApproved(orderId: string, requestId: string): Promise<CompletedCapture | null> {
    const result = await this.captureOrder(orderId, requestId);
    if (result.kind === 'not_approved') return null;
    if (result.kind === 'captured') return result.capture;
    const shown = await this.showOrder(orderId);
    if (!shown.capture) throw new PaymentProviderError('PayPal says the order was captured but shows no capture');
    return shown.capture;
  }

  /** The order as PayPal holds it; its capture when one was made (read after ORDER_ALREADY_CAPTURED). */
  async showOrder(orderId: string): Promise<{ status: string; capture: CompletedCapture | null }> {
    const answer = await this.api('GET', `/v2/checkout/orders/${encodeURIComponent(orderId)}`);
    if (answer.status !== 200) throw unexpected('show order', answer);
    const order = parse(Order, answer.body, 'show order');
    return { status: order.status, capture: order.purchase_units[0]?.payments?.captures?.[0] ? completedCapture(order) : null };
  }

  /**
   * Asks PayPal whether a webhook delivery is genuine (its transmission signature over this event).
   * `event` is the delivery's whole JSON, unknown fields included: the signature covers all of it.
   */
  async verifyWebhook(headers: Record<string, string | string[] | undefined>, event: unknown, webhookId: string): Promise<boolean> {
    const field = (name: string) => {
      const value = headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const signed = Object.fromEntries(Object.entries(WEBHOOK_HEADERS).map(([key, header]) => [key, field(header)]));
    if (Object.values(signed).some((value) => value === undefined)) return false;
    const answer = await this.api('POST', '/v1/notifications/verify-webhook-signature', { ...signed, webhook_id: webhookId, webhook_event: event }, undefined, true);
    if (answer.status !== 200) throw unexpected('verify webhook signature', answer);
    return parse(VerifySignatureResponse, answer.body, 'verify webhook signature').verification_status === 'SUCCESS';
  }

  /** `readOnly`: a POST that changes nothing at PayPal, so safe to retry like a GET. */
  private async api(method: 'GET' | 'POST', path: string, body?: unknown, requestId?: string, readOnly = false): Promise<Answer> {
    const attempt = async (): Promise<Answer> => {
      const headers: Record<string, string> = { authorization: `Bearer ${await this.accessToken()}`, accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (requestId) headers['paypal-request-id'] = requestId;
      // Ask for the whole order back: the capture's id and amount are what we record.
      if (method === 'POST') headers.prefer = 'return=representation';
      return this.send(`${this.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    };
    // Only idempotent requests are retried: reads, and POSTs that carry a request id.
    const retriable = method === 'GET' || readOnly || requestId !== undefined;
    const tries = retriable ? 2 : 1;
    let answer: Answer | undefined;
    for (let i = 1; i <= tries; i++) {
      try {
        answer = await attempt();
      } catch (error) {
        if (i === tries || !(error instanceof PaymentProviderError)) throw error;
        continue;
      }
      if (answer.status < 500) break;
    }
    if (!answer) throw new PaymentProviderError('the payment provider could not be reached');
    if (answer.status === 401) {
      // The token was revoked or expired early: fetch a new one once.
      this.token = null;
      answer = await attempt();
    }
    return answer;
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.options.clock() < this.token.until) return this.token.value;
    this.tokenRequest ??= this.fetchToken().finally(() => (this.tokenRequest = null));
    return this.tokenRequest;
  }

  private async fetchToken(): Promise<string> {
    const basic = Buffer.from(`${this.options.clientId}:${this.options.clientSecret}`).toString('base64');
    const answer = await this.send(`${this.base}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: 'grant_type=client_credentials',
    });
    if (answer.status !== 200) throw unexpected('token', answer);
    const token = parse(TokenResponse, answer.body, 'token');
    const lifetimeMs = token.expires_in * 1000;
    const until = this.options.clock() + lifetimeMs - Math.min(TOKEN_MARGIN_MS, lifetimeMs / 2);
    this.token = { value: token.access_token, until };
    return token.access_token;
  }

  private async send(url: string, init: RequestInit): Promise<Answer> {
    let response: Response;
    try {
      response = await this.doFetch(url, { ...init, signal: AbortSignal.timeout(this.options.timeoutMs) });
      const text = await response.text();
      return { status: response.status, body: text === '' ? null : safeJson(text) };
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new PaymentProviderError(timedOut ? 'the payment provider did not answer in time' : 'the payment provider could not be reached');
    }
  }
}

function completedCapture(order: Order): CompletedCapture {
  const capture = order.purchase_units[0]?.payments?.captures?.[0];
  if (!capture?.amount) throw new PaymentProviderError('the payment provider returned an order without its capture');
  return { captureId: capture.id, status: capture.status, amount: capture.amount.value, currency: capture.amount.currency_code };
}

function issueOf(answer: Answer): string | undefined {
  const parsed = v.safeParse(ErrorBody, answer.body);
  return parsed.success ? parsed.output.details[0]?.issue ?? parsed.output.name : undefined;
}

function unexpected(what: string, answer: Answer): PaymentProviderError {
  const parsed = v.safeParse(ErrorBody, answer.body);
  const detail = parsed.success ? [parsed.output.name, issueOf(answer), parsed.output.debug_id].filter(Boolean).join(' ') : undefined;
  return new PaymentProviderError(`the payment provider refused the ${what} (${answer.status})`, detail);
}

function parse<S extends v.GenericSchema>(schema: S, body: unknown, what: string): v.InferOutput<S> {
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) throw new PaymentProviderError(`the payment provider's ${what} answer was not understood`);
  return parsed.output;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
