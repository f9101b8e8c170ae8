/**
 * Hands queued work to `deliver` in bursts: while the feed is busy (the last burst carried more
 * than one item) at most one burst per `windowMs`; otherwise an item goes at once (on the next
 * turn of the event loop, without waiting), so a light feed adds no delay at all.
 *
 * Why: uWS merges everything published to a subscriber within one turn of its loop into a single
 * send. The lobby feed arrives from Redis a message at a time, spread over many turns, so under
 * load each chat line or lobby update cost a send per watching socket (500 syscalls for a lobby
 * with 500 watchers) where a handful of messages could share one. Delivering the feed in bursts
 * lets them share; measured with `npm run bench -- lobby-chat`, see docs/benchmarks.md. The price
 * is at most `windowMs` of added delay, and only while the feed is busy: a burst of one item says
 * it is not (nothing queued up behind the one before), and the next goes on the next turn; a fixed
 * window had delayed every update of a lobby changing every 20 ms, where merging gains nothing.
 *
 * An instance that falls behind its feed must not stop answering. A burst runs for at most
 * `turnMs`, then goes on in the next turn, after the loop has read its sockets and run its timers
 * (engine.io's pings: a loop held for seconds had every client's heartbeat time out). And what
 * waits is kept to `maxPending` items by `compact`, which drops what later items make
 * redundant; without it the backlog would only have moved from Redis's buffers into the heap.
 */
export interface BurstLimits<T> {
  /** The most one turn spends delivering; the rest of the burst goes on in the next turn. */
  turnMs: number;
  /** How many items may wait before `compact` is asked to thin them. */
  maxPending: number;
  /** The items still worth delivering, in order; may answer them all. */
  compact(pending: T[]): T[];
}

export class BurstDelivery<T> {
  #pending: T[] = [];
  /** The length at which `compact` is asked next: twice what it left, so items it must keep never make each push a pass over all. */
  #compactAt = Number.POSITIVE_INFINITY;
  #lastBurstAt = Number.NEGATIVE_INFINITY;
  #lastBurstSize = 0;
  #timer: NodeJS.Timeout | undefined;
  #immediate: NodeJS.Immediate | undefined;

  constructor(
    private readonly deliver: (item: T) => void,
    private readonly windowMs: number,
    private readonly now: () => number = () => performance.now(),
    private readonly limits?: BurstLimits<T>,
  ) {
    if (limits) this.#compactAt = limits.maxPending;
  }

  push(item: T): void {
    this.#pending.push(item);
    if (this.limits && this.#pending.length > this.#compactAt) {
      this.#pending = this.limits.compact(this.#pending);
      this.#compactAt = Math.max(this.limits.maxPending, 2 * this.#pending.length);
    }
    if (this.#timer !== undefined || this.#immediate !== undefined) return;
    const wait = this.#lastBurstSize > 1 ? this.#lastBurstAt + this.windowMs - this.now() : 0;
    if (wait <= 0) this.#immediate = setImmediate(() => this.#burst());
    else this.#timer = setTimeout(() => this.#burst(), wait);
  }

  /** Delivers what is queued now, in the order it was pushed, all of it (shutdown). */
  flush(): void {
    this.#burst(Number.POSITIVE_INFINITY);
  }

  #burst(turnMs = this.limits?.turnMs ?? Number.POSITIVE_INFINITY): void {
    clearTimeout(this.#timer);
    clearImmediate(this.#immediate);
    this.#timer = undefined;
    this.#immediate = undefined;
    if (this.#pending.length === 0) return;
    const startedAt = this.now();
    this.#lastBurstAt = startedAt;
    this.#lastBurstSize = this.#pending.length;
    const burst = this.#pending;
    this.#pending = [];
    let sent = 0;
    while (sent < burst.length) {
      this.deliver(burst[sent++]);
      if (sent < burst.length && this.now() - startedAt >= turnMs) break;
    }
    if (sent === burst.length) {
      if (this.limits && this.#pending.length === 0) this.#compactAt = this.limits.maxPending;
      return;
    }
    // Out of time: the rest, ahead of what came meanwhile, in the next turn.
    this.#pending = burst.slice(sent).concat(this.#pending);
    this.#immediate = setImmediate(() => this.#burst());
  }
}
