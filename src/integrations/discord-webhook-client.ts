import type { DiscordMessage } from '../domain/notifications/discord-message';
import type { SendResult } from '../domain/notifications/delivery-policy';

/** The platform side of delivery: one execute-webhook call, classified. */
export type ExecuteWebhook = (url: string, message: DiscordMessage) => Promise<SendResult>;

/**
 * Discord's execute webhook, `POST {url}?wait=true`: with `wait` Discord answers 200 with the
 * message once it exists, instead of 204 before, so a 2xx means the message was posted.
 *
 * Execute-webhook takes no `nonce` (`nonce` with `enforce_nonce` belongs to Create Message, for
 * bots), so a repeated call posts a second message: see the worker for the window that leaves.
 * Nothing here logs or returns the URL: it is the webhook's only credential.
 */
export function discordWebhookClient(options: { timeoutMs: number; fetch?: typeof fetch }): ExecuteWebhook {
  const doFetch = options.fetch ?? fetch;
  return async (url, message) => {
    const target = new URL(url);
    target.searchParams.set('wait', 'true');
    let response: Response;
    try {
      response = await doFetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'league-server notifications' },
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      return { kind: 'retryable', status: null, error: networkError(error) };
    }
    const text = await response.text().catch(() => '');
    const body = parseJson(text);
    const status = response.status;
    if (status >= 200 && status < 300) {
      const remaining = response.headers.get('x-ratelimit-remaining');
      const resetAfter = Number(response.headers.get('x-ratelimit-reset-after'));
      const pauseMs = remaining === '0' && Number.isFinite(resetAfter) && resetAfter > 0 ? Math.ceil(resetAfter * 1000) : null;
      return { kind: 'sent', status, pauseMs };
    }
    if (status === 429) return { kind: 'rate_limited', status, retryAfterMs: retryAfterMs(body, response.headers) };
    const error = typeof body?.message === 'string' ? body.message.slice(0, 200) : response.statusText || 'error';
    if (status === 404) return { kind: 'gone', status, error };
    if (status >= 500) return { kind: 'retryable', status, error };
    return { kind: 'rejected', status, error };
  };
}

/** Discord names the wait in the body (`retry_after`, seconds, fractional) and in Retry-After (whole seconds). */
function retryAfterMs(body: Record<string, unknown> | null, headers: Headers): number {
  const fromBody = Number(body?.retry_after);
  if (Number.isFinite(fromBody) && fromBody >= 0) return Math.ceil(fromBody * 1000);
  const fromHeader = Number(headers.get('retry-after'));
  if (Number.isFinite(fromHeader) && fromHeader >= 0) return Math.ceil(fromHeader * 1000);
  return 1_000;
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null;
  }
}

/** The error's code (ECONNREFUSED, TimeoutError...), never its message: that can carry the URL. */
function networkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } })?.cause;
  if (typeof cause?.code === 'string') return `network error ${cause.code}`;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timed out';
  return 'network error';
}
