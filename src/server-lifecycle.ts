import { LinkedSet } from './collections/linked-set';

/** The answer to a request that arrives, or is still running, once shutdown began. */
export const SHUTTING_DOWN = { status: 503, headers: { Connection: 'close', 'Retry-After': '1' }, body: { error: 'server shutting down; retry on another instance' } };

/** A request as the shutdown sees it, whichever door it came through. */
export interface TrackedRequest {
  /** Answers SHUTTING_DOWN now (or ends an answer already begun). */
  refuse(): void;
}

/**
 * Tracks requests in flight (every door's exchange, src/door/exchange.ts) so that a shutdown can stop
 * accepting, wait a bounded time for the ones already running, and answer whatever is still
 * running 503 before the stores close under it. Requests that arrive once closing began (on a
 * kept-alive connection) are answered 503 at once.
 */
export class InFlight {
  /** Not a Set: one whose members change per request keeps them all until a full collection (LinkedSet). */
  private readonly active = new LinkedSet<TrackedRequest>();
  private waiters: Array<() => void> = [];
  private closing = false;
  private lastArrival = Number.NEGATIVE_INFINITY;

  /** A monotonic timer, not the wall clock: only the gaps between arrivals matter. */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Starts tracking a request; answers the function that stops it (safe to call twice), or null when shutting down: refuse it. */
  enter(request: TrackedRequest): (() => void) | null {
    this.lastArrival = this.now();
    if (this.closing) return null;
    const entry = this.active.add(request);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.active.remove(entry);
      if (this.active.size === 0) for (const wake of this.waiters.splice(0)) wake();
    };
  }

  /** A shutdown began: what ends now ends because of it. */
  get draining(): boolean {
    return this.closing;
  }

  get count(): number {
    return this.active.size;
  }

  /** Resolves when nothing is in flight, or after `timeoutMs` with how many are left. New requests are refused from now on. */
  drain(timeoutMs: number): Promise<number> {
    this.closing = true;
    if (this.active.size === 0) return Promise.resolve(0);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(this.active.size), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(0);
      });
    });
  }

  /**
   * Resolves once no request has arrived for `quietMs` (at most `capMs`). Kept-alive connections
   * stay open after the drain: a client still using one is answered 503 with Connection: close,
   * and only then closes it. Exiting while such clients are mid-send would reset their requests.
   */
  async quiet(quietMs: number, capMs: number): Promise<void> {
    const until = this.now() + capMs;
    for (;;) {
      const now = this.now();
      const wait = Math.min(this.lastArrival + quietMs, until) - now;
      if (wait <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Answers 503 to every request still running (its handler's own answer, if it ever comes, is dropped). */
  refuseRemaining(): number {
    const left = this.active.removeAll();
    for (const request of left) request.refuse();
    return left.length;
  }
}

/**
 * Runs the shutdown steps in order, but the whole sequence gives up after `withinMs`: a store that
 * no longer answers (Redis paused, Postgres silent) must not keep the process alive. Resolves
 * with the names of the steps that failed or did not finish in time.
 */
export async function runWithin(steps: Array<{ name: string; run: () => Promise<void> }>, withinMs: number): Promise<string[]> {
  const unfinished = new Set(steps.map((step) => step.name));
  const failed: string[] = [];
  const sequence = (async () => {
    for (const step of steps) {
      await step.run().catch(() => failed.push(step.name));
      unfinished.delete(step.name);
    }
  })();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([sequence, new Promise((resolve) => (timer = setTimeout(resolve, withinMs)))]);
  clearTimeout(timer);
  return [...failed, ...unfinished];
}
