import type { CommandLimit } from '../engine/engine-ports';
import type { LiveStore, WindowHit } from '../live/live-store';
import type { Caller } from './caller';
import { hitSlidingWindow, retryAfterSeconds } from './key-rate-limit';

export interface WindowLimit {
  limit: number;
  windowMs: number;
}

/**
 * Per-user limits on lobby commands: chat messages and other commands per 10 s, counted in the
 * live store, so they hold across instances; the counts come from configuration (their defaults:
 * DEFAULT_USER_RATE_LIMITS in src/config/config.ts), documented in the README.
 */
export const USER_ACTION_WINDOW_MS = 10_000;
/** Lobby creation is counted per minute: a person creates one now and then, a create/cancel loop dozens a second. */
export const LOBBY_CREATE_WINDOW_MS = 60_000;
type UserAction = 'chat' | 'command' | 'create';

/** The limits from configuration (CHAT_RATE_LIMIT, COMMAND_RATE_LIMIT: per 10 s; LOBBY_CREATE_RATE_LIMIT: per minute). */
export const userActionLimits = (per10s: { chat: number; command: number }, createsPerMinute: number): Record<UserAction, WindowLimit> => ({
  chat: { limit: per10s.chat, windowMs: USER_ACTION_WINDOW_MS },
  command: { limit: per10s.command, windowMs: USER_ACTION_WINDOW_MS },
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
    private readonly limits: Record<UserAction, WindowLimit>,
  ) {}

  async check(type: string, caller: Caller): Promise<void> {
    const limit = this.limitOf(type, caller);
    if (!limit) return;
    const { key, now, windowMs, limit: most } = limit.hit;
    const verdict = await this.live.hitWindow(key, now, windowMs, most);
    if (!verdict.allowed) throw limit.refuse(verdict);
  }

  /** The same check as a hit to count elsewhere (in a lobby command's own commit); undefined for anonymous callers. */
  limitOf(type: string, caller: Caller): CommandLimit | undefined {
    if (caller.user === null) return undefined;
    const kind: UserAction = type === 'chat' || type === 'create' ? type : 'command';
    const { limit, windowMs } = this.limits[kind];
    return {
      hit: { key: `ratelimit:user:${caller.user.id}:${kind}`, now: this.clock(), windowMs, limit },
      refuse: (verdict: WindowHit) =>
        this.refuse(429, `rate limit exceeded: ${limit} ${WHAT[kind]} per ${windowMs / 1000} s`, { 'Retry-After': String(retryAfterSeconds(verdict)) }),
    };
  }
}
