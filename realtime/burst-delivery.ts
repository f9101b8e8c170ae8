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
 */
export class BurstDelivery<T> {
  #pending: T[] = [];
  #lastBurstAt = Number.NEGATIVE_INFINITY;
  #lastBurstSize = 0;
  #timer: NodeJS.Timeout | undefined;
  #immediate: NodeJS.Immediate | undefined;

  constructor(
    private readonly deliver: (items: T[]) => void,
    private readonly windowMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  push(item: T): void {
    this.#pending.push(item);
    if (this.#timer !== undefined || this.#immediate !== undefined) return;
    const wait = this.#lastBurstSize > 1 ? this.#lastBurstAt + this.windowMs - this.now() : 0;
    if (wait <= 0) this.#immediate = setImmediate(() => this.flush());
    else this.#timer = setTimeout(() => this.flush(), wait);
  }

  /** Delivers what is queued now, in the order it was pushed. */
  flush(): void {
    clearTimeout(this.#timer);
    clearImmediate(this.#immediate);
    this.#timer = undefined;
    this.#immediate = undefined;
    if (this.#pending.length === 0) return;
    this.#lastBurstAt = this.now();
    this.#lastBurstSize = this.#pending.length;
    const burst = this.#pending;
    this.#pending = [];
    this.deliver(burst);
  }
}
