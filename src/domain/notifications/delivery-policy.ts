/** How one execute-webhook call ended, as the platform client classifies it. */
export type SendResult =
  | { kind: 'sent'; status: number; /** The bucket is empty: the next call waits this long (X-RateLimit-Reset-After). */ pauseMs: number | null }
  | { kind: 'rate_limited'; status: 429; retryAfterMs: number }
  | { kind: 'gone'; status: 404; error: string }
  | { kind: 'rejected'; status: number; error: string }
  | { kind: 'retryable'; status: number | null; error: string };

/** What the worker does with the delivery (and its webhook) next. */
export type DeliveryStep =
  | { step: 'sent'; webhookPauseUntil: number | null }
  | { step: 'wait'; webhookPauseUntil: number }
  | { step: 'disable_webhook'; reason: string }
  | { step: 'fail'; failures: number; error: string }
  | { step: 'retry'; failures: number; at: number; error: string };

export interface RetryPolicy {
  /** Failed tries (5xx, network, timeout) after which the delivery is `failed`. */
  maxFailures: number;
  /** The first back-off; each further failure doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxFailures: 10, baseDelayMs: 1_000, maxDelayMs: 10 * 60_000 };

/**
 * The back-off before try `failures + 1`: exponential, with "equal jitter" (half fixed, half
 * random) so that after a platform outage the instances' retries spread out instead of arriving
 * together, while a retry never comes sooner than half its step. `random` is in [0, 1).
 */
export function backoffMs(failures: number, policy: RetryPolicy, random: number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failures - 1));
  return Math.round(step / 2 + (step / 2) * random);
}

/**
 * The rule of delivery: a 2xx is final; a 429 waits what it names and is no failure (the platform
 * asked us to slow down, nothing went wrong); a 404 means the webhook was deleted on the platform,
 * so it is disabled; any other 4xx will not improve by retrying; 5xx and network errors back off,
 * and the `maxFailures`-th fails the delivery.
 */
export function nextStep(result: SendResult, failuresBefore: number, now: number, policy: RetryPolicy, random: number): DeliveryStep {
  switch (result.kind) {
    case 'sent':
      return { step: 'sent', webhookPauseUntil: result.pauseMs === null ? null : now + result.pauseMs };
    case 'rate_limited':
      return { step: 'wait', webhookPauseUntil: now + result.retryAfterMs };
    case 'gone':
      return { step: 'disable_webhook', reason: `the platform answered 404: ${result.error}` };
    case 'rejected':
      return { step: 'fail', failures: failuresBefore + 1, error: `${result.status}: ${result.error}` };
    case 'retryable': {
      const failures = failuresBefore + 1;
      const error = result.status === null ? result.error : `${result.status}: ${result.error}`;
      if (failures >= policy.maxFailures) return { step: 'fail', failures, error };
      return { step: 'retry', failures, at: now + backoffMs(failures, policy, random), error };
    }
  }
}
