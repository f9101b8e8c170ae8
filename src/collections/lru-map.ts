/** An entry and whether it was read since the eviction last passed it. */
interface Held<V> {
  value: V;
  used: boolean;
}

/**
 * A Map that holds at most `capacity` entries: setting one more forgets one not read for the
 * longest while (second chance, an approximation of least recently used).
 * For per-instance memos keyed by what requests carry, so that a flood of distinct keys cannot
 * grow the process.
 *
 * A read only marks its entry. Moving it to the end of the Map on every read (a delete and a set)
 * rebuilt the Map's table every few hundred requests, and each table left behind in the old
 * generation kept the keys it held, one per request, until a full collection
 * (docs/hot-collections.md). Entries move only when the map is full and one must go.
 */
export class LruMap<K, V> {
  readonly #entries = new Map<K, Held<V>>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    const held = this.#entries.get(key);
    if (held === undefined) return undefined;
    held.used = true;
    return held.value;
  }

  set(key: K, value: V): void {
    const held = this.#entries.get(key);
    if (held !== undefined) {
      held.value = value;
      held.used = true;
      return;
    }
    // Room made first: the entry being set is never the one that goes.
    if (this.#entries.size >= this.capacity) this.#evictOne();
    this.#entries.set(key, { value, used: false });
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  /** From the oldest: an entry read since it was last passed goes to the end, unmarked; the first one not read goes. */
  #evictOne(): void {
    for (const [key, held] of this.#entries) {
      this.#entries.delete(key);
      if (!held.used) return;
      held.used = false;
      this.#entries.set(key, held);
    }
  }
}
