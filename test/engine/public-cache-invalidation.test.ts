import { describe, expect, it } from 'vitest';
import { startPublicCacheInvalidation } from '../../src/engine/public-cache-invalidation';
import { MemoryLiveStore } from '../../src/live/memory-live-store';

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('public cache invalidation', () => {
  it('drops the topic here at once and in every other instance through the live store', async () => {
    const live = new MemoryLiveStore();
    const here: string[] = [];
    const there: string[] = [];
    const a = await startPublicCacheInvalidation(live, { invalidate: (t) => here.push(t), invalidateAll: () => here.push('*') }, () => undefined);
    const b = await startPublicCacheInvalidation(live, { invalidate: (t) => there.push(t), invalidateAll: () => there.push('*') }, () => undefined);
    a.invalidate('matches');
    expect(here).toEqual(['matches']);
    await settle();
    expect(there).toEqual(['matches']);
    await a.stop();
    await b.stop();
    await live.close();
  });
});
