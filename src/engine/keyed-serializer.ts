/**
 * Runs tasks one after another per key, different keys in parallel. The engine puts each
 * lobby's commands of this process in one lane: commands racing on one hot lobby inside an
 * instance would otherwise all read the same version, and all but one lose the compare-and-set
 * and retry, each retry a live-store round trip. Across instances the compare-and-set still
 * decides; this only removes the contention an instance would have with itself.
 */
export class KeyedSerializer {
  readonly #tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Keys with work queued or running (for tests and metrics). */
  get busyKeys(): number {
    return this.#tails.size;
  }
}
