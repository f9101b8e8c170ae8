import { isDatabaseUnavailable } from './database-unavailable';

/**
 * Reads that outlive a short database outage. Each answer is kept per key; while the database is
 * unreachable, the last answer younger than `maxAgeMs` is served instead of failing; once a read
 * has found it unreachable, reads answer from those at once (one a second probes in the
 * background), so a silent database does not hold every request for its timeout. A key never read while
 * the database answered still fails (503). Used where a stale answer is safe for that long: the
 * user row behind a session, a user's ban state.
 */
export class LastKnown<K, V> {
  readonly #answers = new Map<K, { value: V; at: number }>();
  /** Set while the database is believed down; reads then answer from what is known, without waiting. */
  #down = false;
  #probedAt = 0;

  constructor(
    private readonly clock: () => number,
    private readonly maxAgeMs = 10 * 60_000,
    private readonly maxEntries = 50_000,
  ) {}

  async read(key: K, load: () => Promise<V>): Promise<V> {
    const known = this.#down ? this.#fresh(key, this.clock()) : null;
    if (known) {
      // One read a second goes to the database in the background; its success ends the outage.
      if (this.clock() - this.#probedAt >= PROBE_EVERY_MS) void this.#load(key, load).catch(() => undefined);
      return known.value;
    }
    try {
      return await this.#load(key, load);
    } catch (error) {
      const stale = isDatabaseUnavailable(error) ? this.#fresh(key, this.clock()) : null;
      if (stale) return stale.value;
      throw error;
    }
  }

  async #load(key: K, load: () => Promise<V>): Promise<V> {
    this.#probedAt = this.clock();
    try {
      const value = await load();
      this.#down = false;
      this.#remember(key, value);
      return value;
    } catch (error) {
      if (isDatabaseUnavailable(error)) this.#down = true;
      throw error;
    }
  }

  #fresh(key: K, now: number): { value: V } | null {
    const known = this.#answers.get(key);
    return known && now - known.at <= this.maxAgeMs ? known : null;
  }

  #remember(key: K, value: V): void {
    // Re-inserted, so the Map's order is oldest first and the first key is the one to drop.
    this.#answers.delete(key);
    this.#answers.set(key, { value, at: this.clock() });
    if (this.#answers.size > this.maxEntries) this.#answers.delete(this.#answers.keys().next().value as K);
  }
}

const PROBE_EVERY_MS = 1_000;
