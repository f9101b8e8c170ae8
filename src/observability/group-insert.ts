interface Waiting<T> {
  rows: readonly T[];
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Group commit for appends: the batches that arrive while an INSERT is in flight wait and are
 * written together by the next one, and each caller's promise settles only when the INSERT that
 * holds its rows has committed (or failed: then every caller in it gets the error and none was
 * told "stored"). So an acknowledged row is in the database, never in a buffer a crash could
 * lose, while under load many requests share one statement: the database's per-statement cost,
 * which the bench showed to dominate, is paid once per group rather than once per request.
 */
export class GroupInsert<T> {
  #queue: Array<Waiting<T>> = [];
  #inFlight = 0;

  constructor(
    private readonly insert: (rows: readonly T[]) => Promise<void>,
    /** Rows per statement at most (Postgres takes at most 65535 parameters in one). */
    private readonly maxRows: number,
    /** Statements in flight at once (a share of the connection pool). */
    private readonly concurrency = 2,
  ) {}

  write(rows: readonly T[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#queue.push({ rows, resolve, reject });
      if (this.#inFlight < this.concurrency) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#inFlight += 1;
    try {
      while (this.#queue.length > 0) {
        const group = this.#take();
        try {
          await this.insert(group.flatMap((waiting) => waiting.rows));
          for (const waiting of group) waiting.resolve();
        } catch (error) {
          for (const waiting of group) waiting.reject(error);
        }
      }
    } finally {
      this.#inFlight -= 1;
    }
  }

  /** Whole callers from the front of the queue, up to maxRows (a single larger caller goes alone). */
  #take(): Array<Waiting<T>> {
    let rows = 0;
    let count = 0;
    while (count < this.#queue.length && (count === 0 || rows + this.#queue[count].rows.length <= this.maxRows)) {
      rows += this.#queue[count].rows.length;
      count += 1;
    }
    return this.#queue.splice(0, count);
  }
}
