/** What one refund call at PayPal came to. */
export type RefundAnswer =
  | { kind: 'refunded'; refundId: string; status: string }
  /** A definitive refusal (4xx): the same request id would replay it, so the next try takes a new one. */
  | { kind: 'refused'; reason: string }
  /** No answer (timeout, 5xx, unreachable): PayPal may have acted, so the retry reuses the request id. */
  | { kind: 'unanswered'; reason: string };

export type RefundStatus = 'pending' | 'failed' | 'refunded';

export interface RefundStep {
  status: RefundStatus;
  refundId: string | null;
  lastError: string | null;
  newRequestId: boolean;
  /** When to try again; null once refunded. */
  retryInMs: number | null;
}

const BASE_MS = 1_000;
const MAX_MS = 10 * 60_000;

/** Doubling waits from a second up to ten minutes: a refund is retried until it goes through, never dropped. */
export const retryDelayMs = (attempts: number): number => Math.min(MAX_MS, BASE_MS * 2 ** Math.max(0, attempts - 1));

/** The refund row after an attempt; `attempts` counts this one. */
export function afterRefundAttempt(answer: RefundAnswer, attempts: number): RefundStep {
  if (answer.kind === 'refunded') return { status: 'refunded', refundId: answer.refundId, lastError: null, newRequestId: false, retryInMs: null };
  return {
    status: 'failed',
    refundId: null,
    lastError: answer.reason,
    newRequestId: answer.kind === 'refused',
    retryInMs: retryDelayMs(attempts),
  };
}
