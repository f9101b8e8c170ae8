/**
 * Per-key state that stays in place between uses: the slot of a key is made once and then changed
 * in place, and slots left idle are removed together, in a sweep, when their number has doubled.
 *
 * For the state the hot path keeps per lobby. A Map whose entries are deleted when idle and set
 * again on the next use rebuilds its table every few dozen commands; once that table is in the old
 * generation, each table it leaves behind still points at every value it held, and V8 keeps those
 * values (lobby states, the waiting commands and their requests) through every scavenge until the
 * next full collection (docs/hot-collections.md). Here an entry is written only when a key is new,
 * and removed only by a sweep, which runs at most once per `floor` new keys.
 */
export class KeyedSlots<K, S> {
  readonly #slots = new Map<K, S>();
  #sweepAbove: number;

  constructor(
    private readonly make: () => S,
    /** A slot that holds nothing worth keeping: a sweep may remove it. */
    private readonly idle: (slot: S) => boolean,
    private readonly floor = 1_024,
  ) {
    if (!Number.isInteger(floor) || floor < 1) throw new RangeError(`floor must be a positive integer, got ${floor}`);
    this.#sweepAbove = floor;
  }

  get size(): number {
    return this.#slots.size;
  }

  /** The key's slot, or undefined when it has none. */
  peek(key: K): S | undefined {
    return this.#slots.get(key);
  }

  /** The key's slot, made now when it has none. */
  slot(key: K): S {
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      if (this.#slots.size >= this.#sweepAbove) this.sweep();
      slot = this.make();
      this.#slots.set(key, slot);
    }
    return slot;
  }

  /** Removes the idle slots; the next sweep waits until there are twice as many slots as remain (at least `floor`). */
  sweep(): void {
    for (const [key, slot] of this.#slots) if (this.idle(slot)) this.#slots.delete(key);
    this.#sweepAbove = Math.max(this.floor, this.#slots.size * 2);
  }
}
