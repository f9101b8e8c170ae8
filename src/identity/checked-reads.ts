/**
 * How old a copy the hot routes may act on. The issue allows a cache only where a change made
 * anywhere (another instance, an operator's SQL) still takes effect within a second; half of that
 * leaves the rest for the request that notices it.
 */
export const RECENT_MAX_AGE_MS = 500;
/** A copy nobody asked for in this long is no longer checked, and goes. */
const IDLE_MS = 10_000;

export interface CheckedSources<K, V> {
  /** The value read now (null: there is none). */
  load(key: K): Promise<V | null>;
  /** Of the values known as given, the keys whose value changed since or is gone: ONE query for all. */
  changed(known: readonly { key: K; value: V }[]): Promise<K[]>;
}

export interface CheckedReadsOptions {
  capacity: number;
  maxAgeMs?: number;
  /** How often the copies in use are checked; under maxAgeMs, so a copy in use never expires. */
  checkEveryMs?: number;
  /** Real time by default, not the server's clock, which tests may stop or move. */
  now?: () => number;
}

interface Entry<V> {
  value: Promise<V | null>;
  /** The value once loaded (null: none); undefined while loading. */
  loaded?: V | null;
  /** Known current as of this time: loaded, or found unchanged by a check sent then. */
  freshAt: number;
  usedAt: number;
}

/**
 * Values the request path acts on only while known current as of at most `maxAgeMs` ago, so a
 * change made by any instance or by an operator takes effect within `maxAgeMs`.
 *
 * Known current how: every `checkEveryMs` ONE query asks which of the copies in use changed; those
 * are read again on their next use, the others are known current as of the moment that query was
 * sent. Expiring each copy after half a second instead cost a read per active user twice a
 * second: at a thousand lobby commands a second, a store round trip before nearly half of them.
 * A copy the check cannot vouch for (the source did not answer) expires as before. Concurrent
 * callers share one load; `remember` and `forget` keep this instance's own changes exact.
 */
export class CheckedReads<K, V> {
  readonly #entries = new Map<K, Entry<V>>();
  readonly #capacity: number;
  readonly #maxAgeMs: number;
  readonly #checkEveryMs: number;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | null = null;
  #checking = false;

  constructor(
    private readonly sources: CheckedSources<K, V>,
    options: CheckedReadsOptions,
  ) {
    if (!Number.isInteger(options.capacity) || options.capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${options.capacity}`);
    this.#capacity = options.capacity;
    this.#maxAgeMs = options.maxAgeMs ?? RECENT_MAX_AGE_MS;
    this.#checkEveryMs = options.checkEveryMs ?? this.#maxAgeMs / 2;
    this.#now = options.now ?? (() => performance.now());
  }

  get size(): number {
    return this.#entries.size;
  }

  read(key: K): Promise<V | null> {
    const now = this.#now();
    let entry = this.#entries.get(key);
    if (!entry || now - entry.freshAt >= this.#maxAgeMs) {
      entry = this.#put(key, this.sources.load(key), now);
      const loading = entry;
      loading.value.then(
        (value) => void (loading.loaded = value),
        // A failed read is not remembered: the next caller asks again.
        () => this.#entries.get(key) === loading && this.#entries.delete(key),
      );
    }
    entry.usedAt = now;
    return entry.value;
  }

  /** A value this instance has just written, so its next read need not ask. */
  remember(key: K, value: V): void {
    this.#put(key, Promise.resolve(value), this.#now()).loaded = value;
  }

  /** This instance changed or removed what `key` names: the next read asks the source. */
  forget(key: K): void {
    this.#entries.delete(key);
  }

  /** One check of the copies in use (the timer's; tests call it to not wait for the timer). */
  async check(): Promise<void> {
    if (this.#checking) return;
    const sentAt = this.#now();
    const known: { key: K; value: V; entry: Entry<V> }[] = [];
    for (const [key, entry] of this.#entries) {
      if (sentAt - entry.usedAt >= IDLE_MS) {
        this.#entries.delete(key);
        continue;
      }
      // Still loading, or nothing there: left to expire and be read again.
      if (entry.loaded) known.push({ key, value: entry.loaded, entry });
    }
    if (this.#entries.size === 0) this.stop();
    if (known.length === 0) return;
    this.#checking = true;
    try {
      const changed = new Set(await this.sources.changed(known));
      for (const { key, entry } of known) {
        if (this.#entries.get(key) !== entry) continue;
        if (changed.has(key)) this.#entries.delete(key);
        else entry.freshAt = Math.max(entry.freshAt, sentAt);
      }
    } catch {
      // The source did not answer: nothing is vouched for, the copies expire as they would have.
    } finally {
      this.#checking = false;
    }
  }

  /** Stops the checks (shutdown); a later read starts them again. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  #put(key: K, value: Promise<V | null>, now: number): Entry<V> {
    const entry: Entry<V> = { value, freshAt: now, usedAt: now };
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    if (this.#entries.size > this.#capacity) this.#entries.delete(this.#entries.keys().next().value!);
    this.#timer ??= setInterval(() => void this.check(), this.#checkEveryMs).unref();
    return entry;
  }
}
