import { describe, expect, it } from 'vitest';
import { LIVE_EPOCH_KEY, LiveEpoch } from '../../src/engine/live-epoch';
import { LiveStoreUnavailable } from '../../src/live/live-store-unavailable';
import { MemoryLiveStore } from '../../src/live/memory-live-store';

/** A LiveEpoch whose rebuilds each run only when the test releases them (`release` ends the one under way). */
function heldRebuild(options: { rebuildWaitMs?: number } = {}) {
  const live = new MemoryLiveStore();
  let epochs = 0;
  const holds: Array<() => void> = [];
  let started!: () => void;
  const rebuildStarted = new Promise<void>((resolve) => (started = resolve));
  const release = () => holds.shift()?.();
  const epoch = new LiveEpoch({
    live,
    nextEpoch: async () => ++epochs,
    rebuild: async () => {
      started();
      await new Promise<void>((resolve) => holds.push(resolve));
    },
    onError: (error) => {
      throw error;
    },
    ...options,
  });
  return { live, epoch, release, rebuildStarted };
}

describe('the live epoch while the live store is rebuilt', () => {
  it('answers the guard of the commands resting on the membership index only once the rebuild is done', async () => {
    const { epoch, release, rebuildStarted } = heldRebuild();
    let answered = false;
    const guard = epoch.whole().then((g) => ((answered = true), g));
    await rebuildStarted;
    // The rebuild is under way: a microtask turn later the guard is still not given.
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    release();
    expect(await guard).toMatchObject({ key: LIVE_EPOCH_KEY });
  });

  it('gives up with the live store unavailable (503) when the rebuild outlasts the wait', async () => {
    const { epoch, release } = heldRebuild({ rebuildWaitMs: 50 });
    await expect(epoch.whole()).rejects.toBeInstanceOf(LiveStoreUnavailable);
    release();
  });

  it('fails a commit guarded before a loss while the store is being rebuilt', async () => {
    const { live, epoch, release, rebuildStarted } = heldRebuild();
    const first = epoch.whole();
    await rebuildStarted;
    release();
    const guard = await first;
    await live.delete(LIVE_EPOCH_KEY);
    // The loss is found (a new rebuild starts): the command read before it may not write now.
    await epoch.current();
    const result = await live.commit({ guards: [guard], writes: [{ key: 'lobby-member:1', expectedVersion: 0, value: 'NEWONE' }] });
    expect(result.ok).toBe(false);
    expect(await live.get('lobby-member:1')).toBeNull();
    release();
  });
});
