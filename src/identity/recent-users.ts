import type { UserRecord } from '../db/user-record';

/** How old a user row the hot routes may act on: a change made anywhere shows within this. */
export const RECENT_USER_MAX_AGE_MS = 500;
/** Past this many cached rows, the expired ones are dropped (idle sessions leave nothing behind). */
const SWEEP_ABOVE = 10_000;

interface Entry {
  loadedAt: number;
  row: Promise<UserRecord | null>;
}

/**
 * The session user's row as the request path reads it, reused for at most `maxAgeMs` of real
 * time (not the server's clock, which tests may stop): every authenticated request used to cost
 * one Postgres query for it. Bounded staleness is the only invalidation, so a change made by any
 * instance or by an operator's SQL (`is_admin`, a name) takes effect within `maxAgeMs`. Admin
 * routes do not use it (see the authenticator). Concurrent requests of one user share one query.
 */
export class RecentUsers {
  readonly #entries = new Map<number, Entry>();

  constructor(
    private readonly users: { findById(id: number): Promise<UserRecord | null> },
    private readonly maxAgeMs = RECENT_USER_MAX_AGE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  findById(id: number): Promise<UserRecord | null> {
    const now = this.now();
    const cached = this.#entries.get(id);
    if (cached && now - cached.loadedAt < this.maxAgeMs) return cached.row;
    const row = this.users.findById(id);
    const entry = { loadedAt: now, row };
    this.#entries.set(id, entry);
    // A failed read is not remembered: the next request asks again.
    row.catch(() => this.#entries.get(id) === entry && this.#entries.delete(id));
    if (this.#entries.size > SWEEP_ABOVE) this.#sweep(now);
    return row;
  }

  #sweep(now: number): void {
    for (const [id, entry] of this.#entries) if (now - entry.loadedAt >= this.maxAgeMs) this.#entries.delete(id);
  }
}
