/**
 * How old a copy the hot routes may act on. The issue allows a cache only where a change made
 * anywhere (another instance, an operator's SQL) still takes effect within a second; half of that
 * leaves the rest for the request that notices it.
 */
export const RECENT_MAX_AGE_MS = 500;

interface Entry<V> {
  loadedAt: number;
  value: Promise<V>;
}

export interface RecentReadsOptions {
  capacity: number;
  maxAgeMs?: number;
  /** Real time by default, not the server's clock, which tests may stop or move. */
  now?: () => number;
}

/**
 * Reads reused for at most `maxAgeMs`, shared by concurrent callers. Bounded staleness is the only
 * invalidation for changes made elsewhere; `forget` and `remember` keep this instance's own
 * changes exact. Entries are kept in load order, so the expired ones are dropped from the front as
 * new ones come in, and at most `capacity` are kept whatever the traffic.
 */
export class RecentReads<K, V> {
  readonly #entries = new Map<K, Entry<V>>();
  readonly #capacity: number;
  readonly #maxAgeMs: number;
  readonly #now: () => number;

  constructor(options: RecentReadsOptions) {
    if (!Number.isInteger(options.capacity) || options.capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${options.capacity}`);
    this.#capacity = options.capacity;
    this.#maxAgeMs = options.maxAgeMs ?? RECENT_MAX_AGE_MS;
    this.#now = options.now ?? (() => performance.now());
  }

  get size(): number {
    return this.#entries.size;
  }

  read(key: K, load: () => Promise<V>): Promise<V> {
    const now = this.#now();
    const cached = this.#entries.get(key);
    if (cached && now - cached.loadedAt < this.#maxAgeMs) return cached.value;
    const entry = { loadedAt: now, value: load() };
    this.#put(key, entry, now);
    // A failed read is not remembered: the next caller asks again.
    entry.value.catch(() => this.#entries.get(key) === entry && this.#entries.delete(key));
    return entry.value;
  }

  /** A value this instance has just written, so its next read need not ask. */
  remember(key: K, value: V): void {
    const now = this.#now();
    this.#put(key, { loadedAt: now, value: Promise.resolve(value) }, now);
  }

  /** This instance changed or removed what `key` names: the next read asks the source. */
  forget(key: K): void {
    this.#entries.delete(key);
  }

  #put(key: K, entry: Entry<V>, now: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    for (const [oldKey, old] of this.#entries) {
      if (this.#entries.size <= this.#capacity && now - old.loadedAt < this.#maxAgeMs) break;
      this.#entries.delete(oldKey);
    }
  }
}
