/**
 * The parts of a running server that must be closed, in the reverse of the order they were made:
 * a part closes before whatever it was built on (the deadline worker before the stores).
 */
export class Parts {
  readonly #closers: Array<() => Promise<void>> = [];

  /** Registers the part's close and hands the part back. */
  own<T extends { close(): Promise<void> | void }>(part: T): T {
    this.#closers.unshift(async () => part.close());
    return part;
  }

  /** Closers, latest first: for runWithin at shutdown, or to undo a start that failed. */
  closers(): ReadonlyArray<() => Promise<void>> {
    return [...this.#closers];
  }

  /** Undoes a start that failed part way: every part made so far closes, errors ignored. */
  async abandon(): Promise<void> {
    for (const close of this.#closers) await close().catch(() => undefined);
  }
}
