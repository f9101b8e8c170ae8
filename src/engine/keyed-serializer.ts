import { KeyedSlots } from '../collections/keyed-slots';

/** One key's lane: the last task queued, and how many are queued or running. */
interface Lane {
  tail: Promise<unknown>;
  queued: number;
}

const IDLE: Promise<unknown> = Promise.resolve();

/**
 * Runs tasks one after another per key, different keys in parallel. The engine puts each
 * lobby's commands of this process in one lane: commands racing on one hot lobby inside an
 * instance would otherwise all read the same version, and all but one lose the compare-and-set
 * and retry, each retry a live-store round trip. Across instances the compare-and-set still
 * decides; this only removes the contention an instance would have with itself.
 *
 * A lane stays in place once made (KeyedSlots): deleting it each time it empties, and setting it
 * again on the next task, kept every task's promise alive until a full collection
 * (docs/hot-collections.md).
 */
export class KeyedSerializer {
  readonly #lanes = new KeyedSlots<string, Lane>(
    () => ({ tail: IDLE, queued: 0 }),
    (lane) => lane.queued === 0,
  );
  #busy = 0;

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const lane = this.#lanes.slot(key);
    if (lane.queued++ === 0) this.#busy++;
    const result = lane.tail.then(task);
    const done = () => {
      if (--lane.queued > 0) return;
      lane.tail = IDLE;
      this.#busy--;
    };
    lane.tail = result.then(done, done);
    return result;
  }

  /** Keys with work queued or running (for tests and metrics). */
  get busyKeys(): number {
    return this.#busy;
  }
}
