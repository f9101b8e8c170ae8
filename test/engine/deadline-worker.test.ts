import { describe, expect, it } from 'vitest';
import { startDeadlineWorker } from '../../src/engine/deadline-worker';
import { MemoryLiveStore } from '../../src/live/memory-live-store';

describe('deadline worker', () => {
  it('runs everything due in one round, beyond one batch', async () => {
    const live = new MemoryLiveStore();
    for (let i = 0; i < 7; i++) await live.schedule('q', `m${i}`, 100);
    const ran: string[] = [];
    const worker = startDeadlineWorker({ live, clock: () => 100, batch: 3, intervalMs: 60_000, queues: [{ queue: 'q', run: async (m) => void ran.push(m) }], onError: () => undefined });
    expect(await worker.runOnce()).toBe(7);
    await worker.stop();
    expect(ran.sort()).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6']);
    await live.close();
  });

  it('runs a member again after its lease when the worker that claimed it never finished', async () => {
    const live = new MemoryLiveStore();
    await live.schedule('q', 'lobby', 100);
    let now = 100;
    const dying = startDeadlineWorker({
      live, clock: () => now, intervalMs: 60_000, leaseMs: 2_000, onError: () => undefined,
      queues: [{ queue: 'q', run: () => new Promise<void>(() => undefined) }],
    });
    void dying.runOnce();
    void dying.stop();
    await new Promise((r) => setImmediate(r));
    const ran: string[] = [];
    const survivor = startDeadlineWorker({
      live, clock: () => now, intervalMs: 60_000, leaseMs: 2_000, onError: () => undefined,
      queues: [{ queue: 'q', run: async (m) => void ran.push(m) }],
    });
    now = 2_099;
    expect(await survivor.runOnce()).toBe(0);
    now = 2_100;
    expect(await survivor.runOnce()).toBe(1);
    expect(await survivor.runOnce()).toBe(0);
    expect(ran).toEqual(['lobby']);
    await survivor.stop();
    await live.close();
  });

  it('puts a member whose run failed back for later', async () => {
    const live = new MemoryLiveStore();
    await live.schedule('q', 'flaky', 100);
    let now = 100;
    let attempts = 0;
    const worker = startDeadlineWorker({
      live, clock: () => now, intervalMs: 60_000, retryMs: 1_000, onError: () => undefined,
      queues: [{ queue: 'q', run: async () => { attempts++; if (attempts === 1) throw new Error('down'); } }],
    });
    await worker.runOnce();
    expect(await worker.runOnce()).toBe(0);
    now += 1_000;
    expect(await worker.runOnce()).toBe(1);
    expect(attempts).toBe(2);
    await worker.stop();
    await live.close();
  });
});
