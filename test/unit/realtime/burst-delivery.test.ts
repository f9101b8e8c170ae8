import { describe, expect, it } from 'vitest';
import { BurstDelivery } from '../../../realtime/burst-delivery';

/** A delivery whose bursts the test can await, on a clock the test moves. */
function harness(windowMs: number) {
  let clock = 1_000;
  const bursts: number[][] = [];
  let wake: (() => void) | undefined;
  const delivery = new BurstDelivery<number>((items) => {
    bursts.push(items);
    wake?.();
  }, windowMs, () => clock);
  const nextBurst = () => new Promise<void>((resolve) => (wake = resolve));
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
});
