import { hitSlidingWindow } from '../identity/key-rate-limit';
import type { LiveStore } from '../live/live-store';

const WINDOW_MS = 60_000;

/**
 * COMMUNITY_POSTS_PER_MINUTE: new threads and replies per user per minute, counted in the live
 * store's sliding window so every instance shares one count. A refusal is the transport's 429
 * with Retry-After (the same `refuse` the lobby command limits use).
 */
export class PostingLimit {
  constructor(
    private readonly live: LiveStore,
    private readonly clock: () => number,
    private readonly perMinute: number,
    private readonly refuse: (status: number, message: string, headers?: Record<string, string>) => Error,
  ) {}

  async hit(userId: number): Promise<void> {
    const verdict = await hitSlidingWindow(this.live, `ratelimit:user:${userId}:forum-post`, this.clock(), WINDOW_MS, this.perMinute);
    if (!verdict.allowed) {
      throw this.refuse(429, `posting limit reached: ${this.perMinute} posts a minute`, { 'Retry-After': String(verdict.retryAfterS) });
    }
  }
}
