import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { InFlight } from '../../../src/server-lifecycle';

/** A request as a door tracks it: it leaves the set when its answer finishes or its connection closes. */
function request(inFlight: InFlight): EventEmitter {
  const res = new EventEmitter();
  const leave = inFlight.enter({ refuse: () => res.emit('refused') });
  if (leave) {
    res.once('finish', leave);
    res.once('close', leave);
  }
  return res;
}

describe('requests in flight', () => {
  it('drain resolves at once when nothing is in flight', async () => {
    expect(await new InFlight().drain(1_000)).toBe(0);
  });

  it('drain waits for the requests already running to finish', async () => {
    const inFlight = new InFlight();
    const a = request(inFlight);
    const b = request(inFlight);
    const drained = inFlight.drain(10_000);
    a.emit('finish');
    expect(inFlight.count).toBe(1);
    b.emit('close');
    expect(await drained).toBe(0);
  });

  it('a request that both finishes and closes is counted out once', () => {
    const inFlight = new InFlight();
    const a = request(inFlight);
    request(inFlight);
    a.emit('finish');
    a.emit('close');
    expect(inFlight.count).toBe(1);
  });

  it('drain gives up after its timeout, saying how many are left', async () => {
    const inFlight = new InFlight();
    request(inFlight);
    expect(await inFlight.drain(10)).toBe(1);
  });

  it('quiet resolves at once when no request arrived lately', async () => {
    let now = 10_000;
    const inFlight = new InFlight(() => now);
    await inFlight.quiet(250, 1_000);
    expect(now).toBe(10_000);
  });

  it('quiet waits while requests keep arriving on kept connections, then resolves', async () => {
    // Fake timers: with real ones a loaded machine delays an arrival past the quiet time, and quiet
    // rightly resolves in that gap.
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearInterval', 'performance'] });
    try {
      const inFlight = new InFlight();
      await inFlight.drain(0);
      const started = performance.now();
      request(inFlight);
      const arrivals = setInterval(() => request(inFlight), 20);
      setTimeout(() => clearInterval(arrivals), 150);
      let resolvedAt = Number.NaN;
      const quiet = inFlight.quiet(60, 5_000).then(() => (resolvedAt = performance.now()));
      await vi.advanceTimersByTimeAsync(1_000);
      await quiet;
      // The last arrival is at 140 ms: quiet resolves 60 ms after it, not before.
      expect(resolvedAt - started).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('quiet gives up at its cap however busy the connections are', async () => {
    const inFlight = new InFlight();
    const started = performance.now();
    request(inFlight);
    const arrivals = setInterval(() => request(inFlight), 5);
    await inFlight.quiet(50, 120);
    clearInterval(arrivals);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
  });
});
