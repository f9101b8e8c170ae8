import type { UserRecord } from '../db/user-record';
import type { VersionedUser } from '../db/users-repository';
import { CheckedReads, RECENT_MAX_AGE_MS, type CheckedReadsOptions } from './checked-reads';

/** How old a user row the hot routes may act on: a change made anywhere shows within this. */
export const RECENT_USER_MAX_AGE_MS = RECENT_MAX_AGE_MS;
/** More rows than users active at once; past it the oldest go first. */
const CAPACITY = 10_000;

export interface RecentUserSources {
  /** The row and its version, read now (a null user: no such row). */
  load(id: number): Promise<VersionedUser | null>;
  /** Of rows known at these versions, the ids whose row changed since or is gone. */
  changed(known: readonly { id: number; version: string }[]): Promise<number[]>;
}

/**
 * The session user's row as the request path reads it (checked-reads.ts): a row is loaded with
 * its version (Postgres's xmin), and the periodic check is ONE query asking which of the rows in
 * use have another version now, so a change made by any instance or by an operator's SQL
 * (`is_admin`, a name) takes effect within `maxAgeMs`. Admin routes do not use it (see the
 * authenticator).
 */
export class RecentUsers {
  readonly #rows: CheckedReads<number, VersionedUser>;

  constructor(sources: RecentUserSources, options: Omit<CheckedReadsOptions, 'capacity'> = {}) {
    this.#rows = new CheckedReads(
      { load: sources.load, changed: (known) => sources.changed(known.map(({ key, value }) => ({ id: key, version: value.version }))) },
      { capacity: CAPACITY, ...options },
    );
  }

  async findById(id: number): Promise<UserRecord | null> {
    return (await this.#rows.read(id))?.user ?? null;
  }

  /** One check of the rows in use (the timer's; tests call it to not wait for the timer). */
  check(): Promise<void> {
    return this.#rows.check();
  }

  /** Stops the checks (shutdown); a later read starts them again. */
  stop(): void {
    this.#rows.stop();
  }
}
