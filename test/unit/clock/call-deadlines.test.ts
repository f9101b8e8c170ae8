import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallDeadlines, type TimedCall } from '../../../src/clock/call-deadlines';
import { LATE_TIMER_MS } from '../../../src/clock/late-timer';

class Expired extends Error {}

const BOUND_MS = 40;
/** Timers that keep the process alive. */
const refTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

/** Blocks this thread, as a long garbage collection or a large synchronous copy would. */
function blockLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe('CallDeadlines', () => {
  let expiries = 0;
  const deadlines = () =>
    new CallDeadlines(BOUND_MS, () => {
      expiries++;
      return new Expired('no answer');
    });
  const run = async <T>(list: CallDeadlines, pending: Promise<T>): Promise<{ value?: T; error?: unknown; call: TimedCall }> => {
    const call = list.start();
    try {
      return { value: await list.bound(call, pending), call };
    } catch (error) {
      return { error, call };
    } finally {
      list.end(call);
    }
  };

  afterEach(() => {
    expiries = 0;
  });

  it('answers what the call answered in time, and keeps nothing of it', async () => {
    const list = deadlines();
    const outcome = await run(list, Promise.resolve('ok'));
    expect(outcome.value).toBe('ok');
    expect(list.size).toBe(0);
    expect(expiries).toBe(0);
  });

  it('passes on the error of a call that failed in time', async () => {
    const list = deadlines();
    const outcome = await run(list, Promise.reject(new Error('refused')));
    expect((outcome.error as Error).message).toBe('refused');
    expect(expiries).toBe(0);
  });

  it('rejects a call that is not answered within its bound, once', async () => {
    const list = deadlines();
    const started = performance.now();
    const outcome = await run(list, new Promise(() => undefined));
    expect(outcome.error).toBeInstanceOf(Expired);
    expect(performance.now() - started).toBeGreaterThanOrEqual(BOUND_MS - 1);
    expect(expiries).toBe(1);
    expect(list.size).toBe(0);
  });

  it('expires each call at its own deadline, in the order they started', async () => {
    const list = deadlines();
    const order: string[] = [];
    const first = run(list, new Promise(() => undefined)).then(() => order.push('first'));
    await new Promise((resolve) => setTimeout(resolve, BOUND_MS / 2));
    const late = deferred<string>();
    const second = run(list, late.promise).then((outcome) => order.push(`second ${outcome.value}`));
    await first;
    // The first call's deadline has passed; the second's has not.
    late.resolve('answered');
    await second;
    expect(order).toEqual(['first', 'second answered']);
    expect(expiries).toBe(1);
  });

  it('gives a renewed wait its whole bound again from the renewal', async () => {
    const list = deadlines();
    let expiredAt = 0;
    const started = performance.now();
    const expired = new Promise<void>((resolve) =>
      list.start(() => {
        expiredAt = performance.now();
        resolve();
      }),
    );
    const call = list.start(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, BOUND_MS / 2));
    const renewedAt = performance.now();
    list.renew(call);
    await expired;
    // The first wait expired on time; the renewed one is still waiting.
    expect(expiredAt - started).toBeGreaterThanOrEqual(BOUND_MS - 1);
    expect(list.size).toBe(1);
    const renewedExpiry = new Promise<number>((resolve) => (call.reject = () => resolve(performance.now())));
    expect((await renewedExpiry) - renewedAt).toBeGreaterThanOrEqual(BOUND_MS - 1);
    expect(list.size).toBe(0);
  });

  it('gives a call whose deadline came while this process was blocked one more bound, and marks it stalled', async () => {
    const list = deadlines();
    const answer = deferred<string>();
    const outcome = run(list, answer.promise);
    blockLoop(BOUND_MS + LATE_TIMER_MS + 20);
    // A timer due at once fires after the overdue deadline's; the answer then arrives within the bound given again.
    await new Promise((resolve) => setTimeout(resolve, 0));
    answer.resolve('read after the stall');
    const { value, call } = await outcome;
    expect(value).toBe('read after the stall');
    expect(call.stalled).toBe(true);
    expect(expiries).toBe(0);
  });

  it('expires a stalled call that is still unanswered after its second bound', async () => {
    const list = deadlines();
    const outcome = run(list, new Promise(() => undefined));
    blockLoop(BOUND_MS + LATE_TIMER_MS + 20);
    const { error, call } = await outcome;
    expect(error).toBeInstanceOf(Expired);
    expect(call.stalled).toBe(true);
    expect(expiries).toBe(1);
  });

  it('never keeps the process alive by itself', async () => {
    const list = deadlines();
    const before = refTimers();
    const pending = deferred<number>();
    const outcome = run(list, pending.promise);
    expect(refTimers()).toBe(before);
    pending.resolve(1);
    await outcome;
  });

  it('sets one timer however many calls come and go while its deadline is ahead', async () => {
    const list = deadlines();
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    try {
      for (let round = 0; round < 3; round++) {
        const answers = Array.from({ length: 20 }, () => deferred<number>());
        const outcomes = answers.map((answer) => run(list, answer.promise));
        answers.forEach((answer, i) => answer.resolve(i));
        expect((await Promise.all(outcomes)).map((outcome) => outcome.value)).toEqual(answers.map((_, i) => i));
      }
      expect(setTimeoutSpy).toHaveBeenCalledTimes(1);
    } finally {
      setTimeoutSpy.mockRestore();
    }
  });
});
