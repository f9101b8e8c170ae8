import type { LiveStore, WindowHit } from '../live/live-store';

/** Spec, Limits: 60 requests per minute per key, sliding window. */
export const KEY_REQUESTS_PER_WINDOW = 60;
export const KEY_WINDOW_MS = 60_000;

export type RateVerdict = { allowed: true } | { allowed: false; retryAfterS: number };

/**
 * The window lives in the live store, so every instance counts against the same 60: a client
 * cannot multiply its budget by spreading requests over a load balancer.
 */
export class KeyRateLimit {
  constructor(
    private readonly live: LiveStore,
    private readonly clock: () => number,
    private readonly limit = KEY_REQUESTS_PER_WINDOW,
    private readonly windowMs = KEY_WINDOW_MS,
  ) {}

  hit(keyId: number): Promise<RateVerdict> {
    return hitSlidingWindow(this.live, `ratelimit:key:${keyId}`, this.clock(), this.windowMs, this.limit);
  }
}

/** One hit on a sliding window shared by every instance (the live store's atomic counter). */
export async function hitSlidingWindow(live: LiveStore, key: string, now: number, windowMs: number, limit: number): Promise<RateVerdict> {
  const result = await live.hitWindow(key, now, windowMs, limit);
  if (result.allowed) return { allowed: true };
  return { allowed: false, retryAfterS: retryAfterSeconds(result) };
}

/** Retry-After is whole seconds; rounding up never invites a retry that is still refused. */
export function retryAfterSeconds(refused: WindowHit): number {
  return Math.max(1, Math.ceil(refused.retryAfterMs / 1000));
}
