import { LinkedSet, type LinkedEntry } from '../collections/linked-set';
import { firedLate } from './late-timer';
import { machineTime } from './machine-time';

/** One call in flight, as `start` answers it. */
export interface TimedCall {
  /** When it gives up (machineTime.elapsed), unless it stalls. */
  dueAt: number;
  /**
   * Set when its deadline came while this process's own loop was blocked (see firedLate): the
   * answer may be unread in the socket, so it was given one more full bound from then.
   */
  stalled: boolean;
  /** Rejects the wait when its deadline comes: given to `start`, or set by `bound`. */
  reject: ((error: Error) => void) | null;
  /** Its place in the list; null once the wait is over (ended or expired). */
  entry: LinkedEntry<TimedCall> | null;
}

/**
 * The deadlines of many waits of one kind (the calls in flight to one upstream, the request bodies
 * being read), kept by one timer. A timer per wait, and for a call a Promise.race too, cost a
 * store call about 2.5 µs of CPU and a handful of closures and promises, on paths that run once
 * per lobby command. The waits all have the same bound, so they expire in the order they started
 * (or were last renewed), and a list in that order with one timer for its head serves them all.
 */
export class CallDeadlines {
  readonly #calls = new LinkedSet<TimedCall>();
  #timer: NodeJS.Timeout | undefined;

  /**
   * `boundMs`: how long a call may wait. `expired`: the error a call that waited it out rejects
   * with (made once per expired call, so it may also mark the upstream unavailable).
   */
  constructor(
    private readonly boundMs: number,
    private readonly expired: () => Error,
    private readonly elapsed: () => number = machineTime.elapsed,
  ) {}

  get size(): number {
    return this.#calls.size;
  }

  /** A wait starting now; `end` it when it has settled, however it did. */
  start(reject: ((error: Error) => void) | null = null): TimedCall {
    const call: TimedCall = { dueAt: this.elapsed() + this.boundMs, stalled: false, reject, entry: null };
    call.entry = this.#calls.add(call);
    if (this.#timer === undefined) this.#arm(call.dueAt);
    return call;
  }

  /** Settles as `pending` does, or rejects with the `expired` error when the call's deadline comes first. */
  bound<T>(call: TimedCall, pending: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      call.reject = reject;
      pending.then(resolve, reject);
    });
  }

  /** Gives a wait still in progress its whole bound again from now (a body that is still arriving). */
  renew(call: TimedCall): void {
    if (!call.entry) return;
    this.#calls.remove(call.entry);
    call.dueAt = this.elapsed() + this.boundMs;
    call.entry = this.#calls.add(call);
  }

  end(call: TimedCall): void {
    if (call.entry) this.#calls.remove(call.entry);
    call.entry = null;
    call.reject = null;
  }

  // Not cleared when the list empties: under load it empties and fills again many times a
  // millisecond, and a timer cleared and set each time cost what one timer per call did. It fires
  // at most once a bound for nothing, and never keeps the process alive (a call in flight is kept
  // by its socket).
  #arm(dueAt: number): void {
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, dueAt - this.elapsed())).unref();
  }

  #fire(): void {
    this.#timer = undefined;
    const now = this.elapsed();
    for (let head = this.#calls.first; head && head.value!.dueAt <= now; head = this.#calls.first) {
      const call = head.value!;
      this.#calls.remove(head);
      // Late: this process's own loop was blocked, so the command may have been written only as
      // the block ended, or its answer may not have been read yet. Waiting for the next poll
      // phase alone lost that race on a busy machine; the upstream gets one full bound from now.
      // Its new deadline is the latest in the list, so the list stays in deadline order.
      if (!call.stalled && firedLate(call.dueAt - this.boundMs, this.boundMs, now)) {
        call.stalled = true;
        call.dueAt = now + this.boundMs;
        call.entry = this.#calls.add(call);
        continue;
      }
      call.entry = null;
      call.reject?.(this.expired());
      call.reject = null;
    }
    const next = this.#calls.first;
    if (next) this.#arm(next.value!.dueAt);
  }
}
