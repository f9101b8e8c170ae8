/** One member's place in a LinkedSet: what `add` answers and `remove` takes. */
export interface LinkedEntry<T> {
  value: T | undefined;
  previous: LinkedEntry<T> | null;
  next: LinkedEntry<T> | null;
}

/**
 * A set of short-lived members, added and removed in O(1), for what the request path tracks per
 * request (the requests in flight). A JavaScript Set would do the same, but a Set whose members
 * come and go thousands of times a second rebuilds its table every few dozen changes, and once
 * that table is in the old generation each table it leaves behind still points at the members it
 * held: V8 keeps those members through every scavenge until the next full collection, so every
 * request's objects were promoted (docs/hot-collections.md). A removed entry here lets go of its
 * member and its neighbours at once (a member is never undefined: that marks a removed entry).
 */
export class LinkedSet<T extends NonNullable<unknown>> {
  #first: LinkedEntry<T> | null = null;
  #last: LinkedEntry<T> | null = null;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The oldest member's entry, null when empty. */
  get first(): LinkedEntry<T> | null {
    return this.#first;
  }

  add(value: T): LinkedEntry<T> {
    const entry: LinkedEntry<T> = { value, previous: this.#last, next: null };
    if (this.#last) this.#last.next = entry;
    else this.#first = entry;
    this.#last = entry;
    this.#size++;
    return entry;
  }

  /** Removes the entry `add` answered; removing it twice changes nothing. */
  remove(entry: LinkedEntry<T>): void {
    if (entry.value === undefined) return;
    if (entry.previous) entry.previous.next = entry.next;
    else this.#first = entry.next;
    if (entry.next) entry.next.previous = entry.previous;
    else this.#last = entry.previous;
    entry.value = undefined;
    entry.previous = null;
    entry.next = null;
    this.#size--;
  }

  /** Removes every member and answers them, oldest first (removing their entries again changes nothing). */
  removeAll(): T[] {
    const values: T[] = [];
    for (let entry = this.#first; entry; ) {
      const next = entry.next;
      values.push(entry.value!);
      this.remove(entry);
      entry = next;
    }
    return values;
  }
}
