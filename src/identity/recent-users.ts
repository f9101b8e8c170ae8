import type { UserRecord } from '../db/user-record';
import { RECENT_MAX_AGE_MS, RecentReads } from './recent-reads';

/** How old a user row the hot routes may act on: a change made anywhere shows within this. */
export const RECENT_USER_MAX_AGE_MS = RECENT_MAX_AGE_MS;
/** More rows than users active in half a second; past it the oldest go first. */
const CAPACITY = 10_000;

/**
 * The session user's row as the request path reads it, reused for at most `maxAgeMs` of real
 * time: every authenticated request used to cost one Postgres query for it. Bounded staleness is
 * the only invalidation, so a change made by any instance or by an operator's SQL (`is_admin`, a
 * name) takes effect within `maxAgeMs`. Admin routes do not use it (see the authenticator).
 * Concurrent requests of one user share one query.
 */
export class RecentUsers {
  readonly #rows: RecentReads<number, UserRecord | null>;

  constructor(
    private readonly users: { findById(id: number): Promise<UserRecord | null> },
    maxAgeMs = RECENT_USER_MAX_AGE_MS,
    now?: () => number,
  ) {
    this.#rows = new RecentReads({ capacity: CAPACITY, maxAgeMs, now });
  }

  findById(id: number): Promise<UserRecord | null> {
    return this.#rows.read(id, () => this.users.findById(id));
  }
}
