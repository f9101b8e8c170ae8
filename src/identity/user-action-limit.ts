import type { LiveStore } from '../live/live-store';
import type { Caller } from './caller';
import { hitSlidingWindow } from './key-rate-limit';

export interface WindowLimit {
  limit: number;
  windowMs: number;
}

/**
 * Per-user limits on lobby commands, far above what a person in a real lobby does (a fast
 * drafter or chatter sends a few a second at most) and far below a script's thousands: chat 20
 * messages per 10 s, any other command 60 per 10 s. Counted in the live store, so they hold
 * across instances; documented in the README.
 */
export const USER_ACTION_WINDOW_MS = 10_000;
export const USER_ACTION_LIMITS: Record<'chat' | 'command', WindowLimit> = {
  chat: { limit: 20, windowMs: USER_ACTION_WINDOW_MS },
  command: { limit: 60, windowMs: USER_ACTION_WINDOW_MS },
};

/** The limits from configuration (CHAT_RATE_LIMIT, COMMAND_RATE_LIMIT: per 10 s). */
export const userActionLimits = (perTenSeconds: { chat: number; command: number }): Record<'chat' | 'command', WindowLimit> => ({
  chat: { limit: perTenSeconds.chat, windowMs: USER_ACTION_WINDOW_MS },
  command: { limit: perTenSeconds.command, windowMs: USER_ACTION_WINDOW_MS },
});

/**
 * The gate both doors pass before a lobby command runs (runLobbyCommand). A refusal is thrown
 * as the HTTP layer's error (429 with Retry-After), which the socket door answers as
 * `{error, status: 429}`.
 */
export class UserActionLimit {
  constructor(
    private readonly live: LiveStore,
    private readonly clock: () => number,
    private readonly refuse: (status: number, message: string, headers?: Record<string, string>) => Error,
    private readonly limits = USER_ACTION_LIMITS,
  ) {}

  async check(type: string, caller: Caller): Promise<void> {
    if (caller.user === null) return;
    const kind = type === 'chat' ? 'chat' : 'command';
    const { limit, windowMs } = this.limits[kind];
    const verdict = await hitSlidingWindow(this.live, `ratelimit:user:${caller.user.id}:${kind}`, this.clock(), windowMs, limit);
    if (!verdict.allowed) {
      const what = kind === 'chat' ? 'chat messages' : 'lobby commands';
      throw this.refuse(429, `rate limit exceeded: ${limit} ${what} per ${windowMs / 1000} s`, { 'Retry-After': String(verdict.retryAfterS) });
    }
  }
}
