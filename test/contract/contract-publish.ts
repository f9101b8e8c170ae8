import { describe, expect, it } from 'vitest';
import type { LiveStore } from '../../src/live/live-store';
import type { LiveStoreContractOptions, LiveStoreHarness } from './live-store-harness';
import { waitForCount } from './live-store-harness';

const WRITERS = 8;
const COMMITS = 300;

/**
 * Writers on every given store bump one document until COMMITS versions are written, each
 * write publishing the version it makes; lost races read again and retry.
 */
async function raceVersionedPublishes(stores: LiveStore[]): Promise<void> {
  let committed = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, i) => {
      const store = stores[i % stores.length];
      while (committed < COMMITS) {
        const version = (await store.get('feed:doc'))?.version ?? 0;
        if (version >= COMMITS) return;
        const next = String(version + 1);
        const written = await store.compareAndSet([{ key: 'feed:doc', expectedVersion: version, value: next }], { channel: 'feed', messages: [next] });
        if (written.ok) committed++;
      }
    }),
  );
}

/** Publications made in the same atomic step as a compare-and-set or a list push. */
export function publishRules(current: () => LiveStoreHarness, options: LiveStoreContractOptions): void {
  describe('publishing with a write', () => {
    it('publishes the messages of a compare-and-set that succeeds, in the order given', async () => {
      const { store } = current();
      const received: string[] = [];
      await store.subscribe('feed', (message) => received.push(message));
      const written = await store.compareAndSet([{ key: 'feed:doc', expectedVersion: 0, value: 'a' }], { channel: 'feed', messages: ['1', '2', '3'] });
      expect(written).toEqual({ ok: true, versions: [1] });
      await waitForCount(received, 3, 'published messages');
      expect(received).toEqual(['1', '2', '3']);
    });

    it('publishes nothing when the compare-and-set fails', async () => {
      const { store } = current();
      const received: string[] = [];
      await store.subscribe('feed', (message) => received.push(message));
      const refused = await store.compareAndSet([{ key: 'feed:doc', expectedVersion: 5, value: 'late' }], { channel: 'feed', messages: ['lost'] });
      expect(refused.ok).toBe(false);
      await store.publish('feed', 'marker');
      await waitForCount(received, 1, 'marker');
      expect(received).toEqual(['marker']);
    });

    it('publishes and sets a deadline in one compare-and-set of several keys', async () => {
      const { store } = current();
      const received: string[] = [];
      await store.subscribe('feed', (message) => received.push(message));
      const writes = [{ key: 'feed:a', expectedVersion: 0, value: 'a' }, { key: 'feed:b', expectedVersion: 0, value: 'b' }];
      const written = await store.compareAndSet(writes, { channel: 'feed', messages: ['1', '2'] }, { queue: 'feed:queue', member: 'feed', dueAt: 100 });
      expect(written).toEqual({ ok: true, versions: [1, 1] });
      await waitForCount(received, 2, 'published messages');
      expect(received).toEqual(['1', '2']);
      expect(await store.claimDue('feed:queue', 100, 10)).toEqual(['feed']);
      expect(await store.getMany(['feed:a', 'feed:b'])).toEqual([{ version: 1, value: 'a' }, { version: 1, value: 'b' }]);
    });

    it(`delivers ${COMMITS} versions written by racing writers in strictly increasing order, none missing`, async () => {
      const { store, openPeer } = current();
      const stores = options.sharedAcrossInstances ? [store, await openPeer!()] : [store];
      // Each store's own subscriber must see the one order, not just one of them.
      const seen = stores.map(() => [] as number[]);
      for (const [i, s] of stores.entries()) await s.subscribe('feed', (message) => seen[i].push(Number(message)));
      await raceVersionedPublishes(stores);
      const everyVersion = Array.from({ length: COMMITS }, (_, i) => i + 1);
      for (const [i, received] of seen.entries()) {
        await waitForCount(received, COMMITS, `deliveries to store ${i}`);
        expect(received).toEqual(everyVersion);
      }
    });
  });
}
