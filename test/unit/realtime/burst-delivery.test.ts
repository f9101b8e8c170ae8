import { describe, expect, it } from 'vitest';
import { BurstDelivery, type BurstLimits } from '../../../realtime/burst-delivery';

/**
 * A delivery whose bursts the test can await, on a clock the test moves. A burst is what is
 * delivered in one synchronous run: it ends at the first microtask after its first item.
 */
function harness(windowMs: number, limits?: BurstLimits<number>, onDeliver: (item: number) => void = () => undefined) {
  let clock = 1_000;
  const bursts: number[][] = [];
  let current: number[] | null = null;
  let wake: (() => void) | undefined;
  const delivery = new BurstDelivery<number>((item) => {
    onDeliver(item);
    if (current) return void current.push(item);
    current = [item];
    bursts.push(current);
    queueMicrotask(() => {
      current = null;
      wake?.();
    });
  }, windowMs, () => clock, limits);
  /** The next burst to begin from now on, once it has ended. */
  const nextBurst = () => {
    const before = bursts.length;
    return new Promise<void>((resolve) => {
      wake = () => {
        if (bursts.length > before) resolve();
      };
    });
  };
  /** Pushes the items together and waits for the burst that follows. */
  const burstOf = async (...items: number[]) => {
    const burst = nextBurst();
    for (const item of items) delivery.push(item);
    await burst;
  };
  return { delivery, bursts, nextBurst, burstOf, advance: (ms: number) => (clock += ms) };
}

describe('burst delivery', () => {
  it('delivers a lone item after a quiet spell on the next turn, without waiting for the window', async () => {
    const h = harness(60_000);
    const burst = h.nextBurst();
    h.delivery.push(1);
    expect(h.bursts).toEqual([]);
    await burst;
    expect(h.bursts).toEqual([[1]]);
  });

  it('delivers what arrives while a burst is due together, in the order pushed', async () => {
    const h = harness(5);
    await h.burstOf(1);
    await h.burstOf(2, 3, 4);
    expect(h.bursts).toEqual([[1], [2, 3, 4]]);
  });

  it('waits no longer than the window after the last burst', async () => {
    const h = harness(20);
    await h.burstOf(1);
    const pushedAt = performance.now();
    await h.burstOf(2);
    expect(performance.now() - pushedAt).toBeLessThan(20 + 50);
    expect(h.bursts).toEqual([[1], [2]]);
  });

  it('delivers the next item on the next turn, inside the window, after a burst of one: a light feed waits for nothing', async () => {
    const h = harness(60_000);
    await h.burstOf(1);
    await h.burstOf(2);
    expect(h.bursts).toEqual([[1], [2]]);
  });

  it('holds the next item for the window after a burst of several: a busy feed is sent together', async () => {
    const h = harness(60_000);
    await h.burstOf(1, 2);
    h.delivery.push(3);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.bursts).toEqual([[1, 2]]);
    h.delivery.flush();
    expect(h.bursts).toEqual([[1, 2], [3]]);
  });

  it('flush delivers what is queued at once and only once', async () => {
    const h = harness(60_000);
    h.delivery.push(1);
    h.delivery.flush();
    h.delivery.flush();
    expect(h.bursts).toEqual([[1]]);
    h.advance(60_000);
    await h.burstOf(2);
    expect(h.bursts).toEqual([[1], [2]]);
  });

  it('goes on with a burst in the next turn once it has taken its time, so other work of the loop runs between', async () => {
    let h: ReturnType<typeof harness>;
    // Each item takes 4 ms of the test's clock; a turn may take 10.
    h = harness(60_000, { turnMs: 10, maxPending: 100, compact: (pending) => pending }, () => h.advance(4));
    const first = h.nextBurst();
    for (const item of [1, 2, 3, 4, 5, 6, 7]) h.delivery.push(item);
    await first;
    expect(h.bursts).toEqual([[1, 2, 3]]);
    let burstsBeforeOtherWork = -1;
    setImmediate(() => (burstsBeforeOtherWork = h.bursts.length));
    await h.nextBurst();
    await h.nextBurst();
    expect(h.bursts).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(burstsBeforeOtherWork).toBe(2);
  });

  it('keeps the rest of a burst ahead of what arrives while it waits for its next turn', async () => {
    let h: ReturnType<typeof harness>;
    h = harness(60_000, { turnMs: 10, maxPending: 100, compact: (pending) => pending }, () => h.advance(6));
    const first = h.nextBurst();
    for (const item of [1, 2, 3, 4]) h.delivery.push(item);
    await first;
    h.delivery.push(5);
    await h.nextBurst();
    await h.nextBurst();
    expect(h.bursts.flat()).toEqual([1, 2, 3, 4, 5]);
  });

  it('asks compact to thin what waits once more than maxPending items do, and delivers what it keeps', async () => {
    const compacted: number[][] = [];
    const h = harness(60_000, { turnMs: 10, maxPending: 3, compact: (pending) => (compacted.push(pending), pending.filter((item) => item % 2 === 0)) });
    const burst = h.nextBurst();
    for (const item of [1, 2, 3, 4]) h.delivery.push(item);
    await burst;
    expect(compacted).toEqual([[1, 2, 3, 4]]);
    expect(h.bursts).toEqual([[2, 4]]);
  });

  it('asks compact again only after what waits has doubled from what it kept, however many items it must keep', () => {
    let calls = 0;
    const h = harness(60_000, { turnMs: 10, maxPending: 2, compact: (pending) => (calls++, pending) });
    for (let item = 1; item <= 12; item++) h.delivery.push(item);
    // Compacted at 3 (kept 3), then past 6, then past 12 is not reached.
    expect(calls).toBe(2);
    h.delivery.flush();
    expect(h.bursts.flat()).toHaveLength(12);
  });
});
