import type { UserRecord } from '../db/user-record';
import type { VersionedUser } from '../db/users-repository';
import { RECENT_MAX_AGE_MS } from './recent-reads';

/** How old a user row the hot routes may act on: a change made anywhere shows within this. */
export const RECENT_USER_MAX_AGE_MS = RECENT_MAX_AGE_MS;
/** More rows than users active at once; past it the oldest go first. */
const CAPACITY = 10_000;
/** A row nobody asked for in this long is no longer checked, and goes. */
const IDLE_MS = 10_000;

export interface RecentUserSources {
  /** The row and its version, read now (a null user: no such row). */
  load(id: number): Promise<VersionedUser | null>;
  /** Of rows known at these versions, the ids whose row changed since or is gone. */
  changed(known: readonly { id: number; version: string }[]): Promise<number[]>;
}

interface Entry {
  row: Promise<VersionedUser | null>;
  /** The row once loaded (null: no such user); undefined while loading. */
  loaded?: VersionedUser | null;
  /** Known current as of this time (real time): loaded, or found unchanged by a check sent then. */
  freshAt: number;
  usedAt: number;
}

export interface RecentUsersOptions {
  maxAgeMs?: number;
  /** How often the rows in use are checked; under maxAgeMs, so a row in use never expires. */
  checkEveryMs?: number;
  /** Real time by default, not the server's clock, which tests may stop or move. */
  now?: () => number;
}

/**
 * The session user's row as the request path reads it, acted on only while known current as of at
 * most `maxAgeMs` ago: a change made by any instance or by an operator's SQL (`is_admin`, a name)
 * takes effect within `maxAgeMs`. Admin routes do not use it (see the authenticator).
 *
 * Known current how: a row is loaded with its version (Postgres's xmin), and every `checkEveryMs`
 * ONE query asks which of the rows in use have another version now; those are read again on their
 * next use, the others are known current as of the moment that query was sent. Expiring each row
 * after half a second instead cost a query per active user twice a second (at a thousand lobby
 * commands a second, half the requests), the larger part of a command's Postgres cost; the check
 * costs one query per period whatever the number of users. A row the check cannot vouch for (the
 * database did not answer) expires as before. Concurrent requests of one user share one load.
 */
export class RecentUsers {
  readonly #entries = new Map<number, Entry>();
  readonly #maxAgeMs: number;
  readonly #checkEveryMs: number;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | null = null;
  #checking = false;

  constructor(
    private readonly sources: RecentUserSources,
    options: RecentUsersOptions = {},
  ) {
    this.#maxAgeMs = options.maxAgeMs ?? RECENT_USER_MAX_AGE_MS;
    this.#checkEveryMs = options.checkEveryMs ?? this.#maxAgeMs / 2;
    this.#now = options.now ?? (() => performance.now());
  }

  async findById(id: number): Promise<UserRecord | null> {
    const now = this.#now();
    let entry = this.#entries.get(id);
    if (!entry || now - entry.freshAt >= this.#maxAgeMs) {
      entry = { row: this.sources.load(id), freshAt: now, usedAt: now };
      this.#put(id, entry);
      const loaded = entry;
      loaded.row.then(
        (row) => void (loaded.loaded = row),
        // A failed read is not remembered: the next caller asks again.
        () => this.#entries.get(id) === loaded && this.#entries.delete(id),
      );
      this.#timer ??= setInterval(() => void this.check(), this.#checkEveryMs).unref();
    }
    entry.usedAt = now;
    return (await entry.row)?.user ?? null;
  }

  /** One check of the rows in use (the timer's; tests call it to not wait for the timer). */
  async check(): Promise<void> {
    if (this.#checking) return;
    const sentAt = this.#now();
    const known: { id: number; version: string; entry: Entry }[] = [];
    for (const [id, entry] of this.#entries) {
      if (sentAt - entry.usedAt >= IDLE_MS) {
        this.#entries.delete(id);
        continue;
      }
      // Still loading, or a row that is not there: left to expire and be read again.
      if (entry.loaded) known.push({ id, version: entry.loaded.version, entry });
    }
    if (this.#entries.size === 0) this.stop();
    if (known.length === 0) return;
    this.#checking = true;
    try {
      const changed = new Set(await this.sources.changed(known));
      for (const { id, entry } of known) {
        if (this.#entries.get(id) !== entry) continue;
        if (changed.has(id)) this.#entries.delete(id);
        else entry.freshAt = Math.max(entry.freshAt, sentAt);
      }
    } catch {
      // The database did not answer: nothing is vouched for, the rows expire as they would have.
    } finally {
      this.#checking = false;
    }
  }

  /** Stops the checks (shutdown); a later read starts them again. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  #put(id: number, entry: Entry): void {
    this.#entries.delete(id);
    this.#entries.set(id, entry);
    if (this.#entries.size > CAPACITY) this.#entries.delete(this.#entries.keys().next().value!);
  }
}
