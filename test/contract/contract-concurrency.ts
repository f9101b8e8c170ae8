import { describe, expect, it } from 'vitest';
import type { LiveStore } from '../../src/live/live-store';
import type { LiveStoreContractOptions, LiveStoreHarness } from './live-store-harness';

const RACERS = 50;

async function raceCompareAndSet(stores: LiveStore[]): Promise<number[]> {
  await stores[0].compareAndSet([{ key: 'race:doc', expectedVersion: 0, value: 'start' }]);
  const results = await Promise.all(
    Array.from({ length: RACERS }, (_, i) =>
      stores[i % stores.length].compareAndSet([{ key: 'race:doc', expectedVersion: 1, value: `racer ${i}` }]),
    ),
  );
  return results.flatMap((result, i) => (result.ok ? [i] : []));
}

/** Claims until the queue is empty, every store claiming concurrently; returns all claims. */
async function drainConcurrently(stores: LiveStore[], members: string[]): Promise<string[]> {
  for (const member of members) await stores[0].schedule('race:queue', member, 100);
  const claimers = Array.from({ length: 10 }, async (_, i) => {
    const claimed: string[] = [];
    for (;;) {
      const batch = await stores[i % stores.length].claimDue('race:queue', 100, 3);
      if (batch.length === 0) return claimed;
      claimed.push(...batch);
    }
  });
  return (await Promise.all(claimers)).flat();
}

const members = Array.from({ length: 60 }, (_, i) => `member-${String(i).padStart(2, '0')}`);

/** Races on one key: one compare-and-set wins, each deadline is claimed once, the rate limit holds. */
export function concurrencyRules(current: () => LiveStoreHarness, options: LiveStoreContractOptions): void {
  describe('concurrency', () => {
    it(`lets exactly one of ${RACERS} concurrent writes from the same version win`, async () => {
      const { store } = current();
      const winners = await raceCompareAndSet([store]);
      expect(winners).toHaveLength(1);
      expect(await store.get('race:doc')).toEqual({ version: 2, value: `racer ${winners[0]}` });
    });

    it('claims each due member exactly once under concurrent claims', async () => {
      const claimed = await drainConcurrently([current().store], members);
      expect(claimed.sort()).toEqual(members);
    });

    it('hands out distinct counter values to concurrent increments', async () => {
      const { store } = current();
      const values = await Promise.all(Array.from({ length: RACERS }, () => store.increment('race:counter')));
      expect(values.sort((a, b) => a - b)).toEqual(Array.from({ length: RACERS }, (_, i) => i + 1));
    });

    it('allows exactly limit of many concurrent hits', async () => {
      const { store } = current();
      const hits = await Promise.all(Array.from({ length: 20 }, () => store.hitWindow('race:rate', 1000, 1000, 5)));
      expect(hits.filter((hit) => hit.allowed)).toHaveLength(5);
    });

    describe.runIf(options.sharedAcrossInstances)('across instances', () => {
      const twoInstances = async () => {
        const { store, openPeer } = current();
        return [store, await openPeer!()];
      };

      it(`lets exactly one of ${RACERS} writes from two instances win`, async () => {
        const stores = await twoInstances();
        const winners = await raceCompareAndSet(stores);
        expect(winners).toHaveLength(1);
        expect(await stores[1].get('race:doc')).toEqual({ version: 2, value: `racer ${winners[0]}` });
      });

      it('claims each due member exactly once when two instances claim at once', async () => {
        const claimed = await drainConcurrently(await twoInstances(), members);
        expect(claimed.sort()).toEqual(members);
      });

      it('holds the rate limit across instances', async () => {
        const stores = await twoInstances();
        const hits = await Promise.all(Array.from({ length: 20 }, (_, i) => stores[i % 2].hitWindow('race:rate', 1000, 1000, 5)));
        expect(hits.filter((hit) => hit.allowed)).toHaveLength(5);
      });
    });
  });
}
