/**
 * Hands queued work to `deliver` in bursts: at most one burst per `windowMs`, and a lone item
 * after a quiet spell at once (on the next turn of the event loop, without waiting).
 *
 * Why: uWS merges everything published to a subscriber within one turn of its loop into a single
 * send. The lobby feed arrives from Redis a message at a time, spread over many turns, so under
 * load each chat line or lobby update cost a send per watching socket (500 syscalls for a lobby
 * with 500 watchers) where a handful of messages could share one. Delivering the feed in bursts
 * lets them share; measured with `npm run bench -- lobby-chat`, see the README. The price is at
 * most `windowMs` of added delay, and only while the feed is busy.
 */
export class BurstDelivery<T> {
  #pending: T[] = [];
  #lastBurstAt = Number.NEGATIVE_INFINITY;
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
    const wait = this.#lastBurstAt + this.windowMs - this.now();
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
    const burst = this.#pending;
    this.#pending = [];
    this.deliver(burst);
  }
}
