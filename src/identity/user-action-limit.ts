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
/** Lobby creation is counted per minute: a person creates one now and then, a create/cancel loop dozens a second. */
export const LOBBY_CREATE_WINDOW_MS = 60_000;
type UserAction = 'chat' | 'command' | 'create';
export const USER_ACTION_LIMITS: Record<UserAction, WindowLimit> = {
  chat: { limit: 20, windowMs: USER_ACTION_WINDOW_MS },
  command: { limit: 60, windowMs: USER_ACTION_WINDOW_MS },
  create: { limit: 10, windowMs: LOBBY_CREATE_WINDOW_MS },
};

/** The limits from configuration (CHAT_RATE_LIMIT, COMMAND_RATE_LIMIT: per 10 s; LOBBY_CREATE_RATE_LIMIT: per minute). */
export const userActionLimits = (perTenSeconds: { chat: number; command: number }, createsPerMinute = USER_ACTION_LIMITS.create.limit): Record<UserAction, WindowLimit> => ({
  chat: { limit: perTenSeconds.chat, windowMs: USER_ACTION_WINDOW_MS },
  command: { limit: perTenSeconds.command, windowMs: USER_ACTION_WINDOW_MS },
  create: { limit: createsPerMinute, windowMs: LOBBY_CREATE_WINDOW_MS },
});

const WHAT: Record<UserAction, string> = { chat: 'chat messages', command: 'lobby commands', create: 'lobby creations' };

/**
 * The gate both doors pass before a lobby command runs (runLobbyCommand), and lobby creation. A refusal is thrown
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
    const kind: UserAction = type === 'chat' || type === 'create' ? type : 'command';
    const { limit, windowMs } = this.limits[kind];
    const verdict = await hitSlidingWindow(this.live, `ratelimit:user:${caller.user.id}:${kind}`, this.clock(), windowMs, limit);
    if (!verdict.allowed) {
      throw this.refuse(429, `rate limit exceeded: ${limit} ${WHAT[kind]} per ${windowMs / 1000} s`, { 'Retry-After': String(verdict.retryAfterS) });
    }
  }
}
