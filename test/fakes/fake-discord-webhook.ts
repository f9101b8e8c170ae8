import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { listenLocally, sendJson, type LocalServer } from './local-http-server';

/**
 * Discord's execute-webhook endpoint, `POST /api/webhooks/{id}/{token}?wait=true`, on Discord's
 * own path so a registered URL composes as a real one does. It answers as Discord does: 200 with
 * the message object under `wait=true` (204 without), 429 with `retry_after` in the body and
 * Retry-After plus the X-RateLimit-* headers, 404 `{"message": "Unknown Webhook", "code": 10015}`
 * for a webhook it does not know, 400 `Invalid Form Body` (50035) past the message limits.
 * A test scripts the next answers per webhook; the default is a 200.
 */

export type FakeAnswer =
  | { kind: 'ok' }
  | { kind: 'rate_limited'; retryAfterS: number }
  | { kind: 'server_error'; status?: number }
  | { kind: 'unknown_webhook' }
  /** Records the message as posted, then calls `onHeld` and never answers (the test kills the sender). */
  | { kind: 'accept_and_hold' };

export interface ReceivedMessage {
  webhook: string;
  wait: string | null;
  body: { content?: string; embeds?: Array<Record<string, any>>; allowed_mentions?: unknown };
  at: number;
}

export interface FakeDiscordWebhook extends LocalServer {
  /** A new webhook's URL (the fake knows it). */
  newWebhook(): string;
  /** Answers, in order, to the next requests for this webhook URL. */
  script(url: string, ...answers: FakeAnswer[]): void;
  /** Every message posted (a 2xx, or accepted and held), in arrival order. */
  received: ReceivedMessage[];
  /** Every request, whatever the answer. */
  requests: Array<{ webhook: string; answer: FakeAnswer['kind'] | 'invalid'; at: number }>;
  /** Called when an `accept_and_hold` answer has recorded its message. */
  onHeld(listener: () => void): void;
  /** Resolves once `received` holds `n` messages (checked on every arrival). */
  waitForMessages(n: number, timeoutMs?: number): Promise<ReceivedMessage[]>;
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
}

export async function startFakeDiscordWebhook(): Promise<FakeDiscordWebhook> {
  const known = new Set<string>();
  const scripts = new Map<string, FakeAnswer[]>();
  const received: ReceivedMessage[] = [];
  const requests: FakeDiscordWebhook['requests'] = [];
  const held: ServerResponse[] = [];
  const heldListeners: Array<() => void> = [];
  const waiters: Array<() => void> = [];
  const notify = () => waiters.splice(0).forEach((w) => w());

  const server = await listenLocally(async (request, response, url) => {
    const match = /^\/api\/webhooks\/(\d+)\/([\w-]+)$/.exec(url.pathname);
    if (request.method !== 'POST' || !match) return sendJson(response, 404, { message: '404: Not Found', code: 0 });
    const webhook = `${match[1]}/${match[2]}`;
    const body = await readJson(request);
    if (!known.has(webhook)) return answer(webhook, { kind: 'unknown_webhook' });
    const problem = formProblem(body);
    if (problem) {
      requests.push({ webhook, answer: 'invalid', at: Date.now() });
      notify();
      return sendJson(response, 400, { message: 'Invalid Form Body', code: 50035, errors: problem });
    }
    const next = scripts.get(webhook)?.shift() ?? { kind: 'ok' };
    return answer(webhook, next, body, url.searchParams.get('wait'));

    function answer(hook: string, a: FakeAnswer, posted?: ReceivedMessage['body'], wait?: string | null) {
      requests.push({ webhook: hook, answer: a.kind, at: Date.now() });
      switch (a.kind) {
        case 'ok': {
          received.push({ webhook: hook, wait: wait ?? null, body: posted!, at: Date.now() });
          notify();
          if (wait !== 'true') {
            response.writeHead(204, rateHeaders(5, 4));
            response.end();
            return;
          }
          response.writeHead(200, { 'content-type': 'application/json', ...rateHeaders(5, 4) });
          response.end(JSON.stringify({ id: randomBytes(8).readBigUInt64BE().toString(), type: 0, content: posted!.content, embeds: posted!.embeds ?? [], webhook_id: hook.split('/')[0] }));
          return;
        }
        case 'rate_limited':
          notify();
          response.writeHead(429, {
            'content-type': 'application/json', 'retry-after': String(Math.ceil(a.retryAfterS)), 'x-ratelimit-scope': 'shared', ...rateHeaders(5, 0, a.retryAfterS),
          });
          response.end(JSON.stringify({ message: 'You are being rate limited.', retry_after: a.retryAfterS, global: false }));
          return;
        case 'server_error':
          notify();
          return sendJson(response, a.status ?? 502, { message: 'Bad Gateway', code: 0 });
        case 'unknown_webhook':
          notify();
          return sendJson(response, 404, { message: 'Unknown Webhook', code: 10015 });
        case 'accept_and_hold':
          received.push({ webhook: hook, wait: wait ?? null, body: posted!, at: Date.now() });
          held.push(response);
          notify();
          heldListeners.forEach((l) => l());
          return;
      }
    }
  });

  const waitFor = (done: () => boolean, what: string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`fake discord: timed out waiting for ${what} (${received.length} messages, ${requests.length} requests)`)), timeoutMs);
      const check = () => {
        if (done()) {
          clearTimeout(timer);
          resolve();
        } else waiters.push(check);
      };
      check();
    });

  return {
    ...server,
    async close() {
      for (const response of held) response.destroy();
      await server.close();
    },
    newWebhook() {
      const id = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
      const token = randomBytes(24).toString('base64url');
      known.add(`${id}/${token}`);
      return `${server.url}/api/webhooks/${id}/${token}`;
    },
    script(url, ...answers) {
      const key = new URL(url).pathname.replace('/api/webhooks/', '');
      scripts.set(key, [...(scripts.get(key) ?? []), ...answers]);
    },
    received,
    requests,
    onHeld: (listener) => heldListeners.push(listener),
    async waitForMessages(n, timeoutMs = 15_000) {
      await waitFor(() => received.length >= n, `${n} messages`, timeoutMs);
      return received;
    },
    waitForRequests: (n, timeoutMs = 15_000) => waitFor(() => requests.length >= n, `${n} requests`, timeoutMs),
  };
}

function rateHeaders(limit: number, remaining: number, resetAfterS = 1): Record<string, string> {
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': ((Date.now() + resetAfterS * 1000) / 1000).toFixed(3),
    'x-ratelimit-reset-after': resetAfterS.toFixed(3),
    'x-ratelimit-bucket': 'fakebucket',
  };
}

async function readJson(request: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return null;
  }
}

/** Discord's documented limits; a body past them is refused, not truncated. */
function formProblem(body: any): string | null {
  if (body === null || typeof body !== 'object') return 'body';
  const content = typeof body.content === 'string' ? body.content : '';
  const embeds: any[] = Array.isArray(body.embeds) ? body.embeds : [];
  if (content.length === 0 && embeds.length === 0) return 'content or embeds required';
  if ([...content].length > 2000) return 'content: 2000';
  if (embeds.length > 10) return 'embeds: 10';
  let total = 0;
  for (const e of embeds) {
    const len = (s: unknown) => (typeof s === 'string' ? [...s].length : 0);
    if (len(e.title) > 256 || len(e.description) > 4096 || len(e.footer?.text) > 2048) return 'embed text';
    const fields: any[] = e.fields ?? [];
    if (fields.length > 25 || fields.some((f) => len(f.name) > 256 || len(f.value) > 1024 || len(f.value) === 0)) return 'embed fields';
    total += len(e.title) + len(e.description) + len(e.footer?.text) + fields.reduce((n, f) => n + len(f.name) + len(f.value), 0);
  }
  return total > 6000 ? 'embeds: 6000 characters' : null;
}
