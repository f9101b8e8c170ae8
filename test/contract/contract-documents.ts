import { describe, expect, it } from 'vitest';
import type { CasWrite } from '../../src/live/live-store';
import { pushText, type LiveStoreHarness } from './live-store-harness';

/** Creates 'k' and sets member 'm' of `queue` due at `dueAt` in the same compare-and-set. */
const writeWithDeadline = (h: LiveStoreHarness, queue: string, dueAt: number) =>
  h.store.compareAndSet([{ key: 'k', expectedVersion: 0, value: 1 }], undefined, { queue, member: 'm', dueAt });

/** Versioned documents: compare-and-set, reads, deletion, counters, argument checks. */
export function documentRules(current: () => LiveStoreHarness): void {
  describe('documents', () => {
    it('reads an absent key as null', async () => {
      expect(await current().store.get('doc:absent')).toBeNull();
    });

    it('creates a document at version 1 with the value written', async () => {
      const { store } = current();
      expect(await store.compareAndSet([{ key: 'doc:a', expectedVersion: 0, value: { name: 'a' } }])).toEqual({ ok: true, versions: [1] });
      expect(await store.get('doc:a')).toEqual({ version: 1, value: { name: 'a' } });
    });

    it('raises the version by one on each write', async () => {
      const { store } = current();
      await store.compareAndSet([{ key: 'doc:a', expectedVersion: 0, value: 1 }]);
      await store.compareAndSet([{ key: 'doc:a', expectedVersion: 1, value: 2 }]);
      expect(await store.compareAndSet([{ key: 'doc:a', expectedVersion: 2, value: 3 }])).toEqual({ ok: true, versions: [3] });
      expect(await store.get('doc:a')).toEqual({ version: 3, value: 3 });
    });

    it('treats expected version 0 as create-only', async () => {
      const { store } = current();
      await store.compareAndSet([{ key: 'doc:a', expectedVersion: 0, value: 'first' }]);
      expect(await store.compareAndSet([{ key: 'doc:a', expectedVersion: 0, value: 'second' }])).toEqual({ ok: false, conflictKey: 'doc:a' });
      expect(await store.get('doc:a')).toEqual({ version: 1, value: 'first' });
    });

    it.each([
      ['an older', 1],
      ['a newer', 3],
    ])('refuses a write from %s version and keeps the stored one', async (_, stale) => {
      const { store } = current();
      await store.compareAndSet([{ key: 'doc:a', expectedVersion: 0, value: 'v1' }]);
      await store.compareAndSet([{ key: 'doc:a', expectedVersion: 1, value: 'v2' }]);
      expect(await store.compareAndSet([{ key: 'doc:a', expectedVersion: stale, value: 'lost' }])).toEqual({ ok: false, conflictKey: 'doc:a' });
      expect(await store.get('doc:a')).toEqual({ version: 2, value: 'v2' });
    });

    it.each([
      ['the first', 0],
      ['a middle', 1],
      ['the last', 2],
    ])('writes nothing when %s key of a multi-key write is stale', async (_, staleIndex) => {
      const { store } = current();
      const keys = ['multi:a', 'multi:b', 'multi:c'];
      await store.compareAndSet(keys.map((key) => ({ key, expectedVersion: 0, value: 'old' })));
      const writes: CasWrite[] = keys.map((key, i) => ({ key, expectedVersion: i === staleIndex ? 0 : 1, value: i === 1 ? null : 'new' }));
      expect(await store.compareAndSet(writes)).toEqual({ ok: false, conflictKey: keys[staleIndex] });
      expect(await store.getMany(keys)).toEqual(keys.map(() => ({ version: 1, value: 'old' })));
    });

    it('reports the new version of each key of a multi-key write in the order given, 0 for a deletion', async () => {
      const { store } = current();
      await store.compareAndSet([
        { key: 'multi:updated', expectedVersion: 0, value: 1 },
        { key: 'multi:deleted', expectedVersion: 0, value: 1 },
      ]);
      const result = await store.compareAndSet([
        { key: 'multi:updated', expectedVersion: 1, value: 2 },
        { key: 'multi:created', expectedVersion: 0, value: 1 },
        { key: 'multi:deleted', expectedVersion: 1, value: null },
      ]);
      expect(result).toEqual({ ok: true, versions: [2, 1, 0] });
      expect(await store.getMany(['multi:updated', 'multi:created', 'multi:deleted'])).toEqual([{ version: 2, value: 2 }, { version: 1, value: 1 }, null]);
    });

    it('deletes a document written as null, and a new one at that key starts again at version 1', async () => {
      const { store } = current();
      await store.compareAndSet([{ key: 'doc:a', expectedVersion: 0, value: 'x' }]);
      expect(await store.compareAndSet([{ key: 'doc:a', expectedVersion: 1, value: null }])).toEqual({ ok: true, versions: [0] });
      expect(await store.get('doc:a')).toBeNull();
      expect(await store.compareAndSet([{ key: 'doc:a', expectedVersion: 0, value: 'y' }])).toEqual({ ok: true, versions: [1] });
    });

    it('accepts an empty write list as a success that writes nothing', async () => {
      expect(await current().store.compareAndSet([])).toEqual({ ok: true, versions: [] });
    });

    it('stores a value as JSON: it round-trips, and changing the object afterwards changes nothing', async () => {
      const { store } = current();
      const value = { text: 'héllo "quoted"', n: -1.5, flag: false, none: null, list: [1, 'two', { three: 3 }] };
      await store.compareAndSet([{ key: 'doc:json', expectedVersion: 0, value }]);
      value.list.push('mutated');
      expect((await store.get('doc:json'))?.value).toEqual({ text: 'héllo "quoted"', n: -1.5, flag: false, none: null, list: [1, 'two', { three: 3 }] });
    });

    it('reads many keys in the order asked, null for absent ones', async () => {
      const { store } = current();
      await store.compareAndSet([
        { key: 'many:a', expectedVersion: 0, value: 'a' },
        { key: 'many:c', expectedVersion: 0, value: 'c' },
      ]);
      expect(await store.getMany(['many:c', 'many:b', 'many:a'])).toEqual([{ version: 1, value: 'c' }, null, { version: 1, value: 'a' }]);
      expect(await store.getMany([])).toEqual([]);
    });

    it('answers the versions of many keys in the order asked, 0 for absent ones, without the documents', async () => {
      const { store } = current();
      await store.compareAndSet([
        { key: 'versions:a', expectedVersion: 0, value: 'a' },
        { key: 'versions:c', expectedVersion: 0, value: 'c' },
      ]);
      await store.compareAndSet([{ key: 'versions:c', expectedVersion: 1, value: 'c2' }]);
      await store.compareAndSet([{ key: 'versions:p', expectedVersion: 0, value: { phase: 'gathering', votes: {} }, parts: 'all' }]);
      expect(await store.versions(['versions:c', 'versions:b', 'versions:a', 'versions:p'])).toEqual([2, 0, 1, 1]);
      expect(await store.versions([])).toEqual([]);
    });

    it('deletes unconditionally, and deleting an absent key is harmless', async () => {
      const { store } = current();
      await store.compareAndSet([{ key: 'doc:a', expectedVersion: 0, value: 1 }]);
      await store.delete('doc:a');
      await store.delete('doc:never');
      expect(await store.get('doc:a')).toBeNull();
    });

    it('counts with increment from 1 upwards', async () => {
      const { store } = current();
      expect([await store.increment('counter'), await store.increment('counter'), await store.increment('counter')]).toEqual([1, 2, 3]);
    });

    it('holds one kind of data per key: reading a list as a document fails', async () => {
      const { store } = current();
      await pushText(store, 'kind:list', 'x');
      await expect(store.get('kind:list')).rejects.toThrow(/WRONGTYPE/);
    });

    it.each<[string, (h: LiveStoreHarness) => Promise<unknown>]>([
      ['two writes to one key', (h) => h.store.compareAndSet([{ key: 'k', expectedVersion: 0, value: 1 }, { key: 'k', expectedVersion: 0, value: 2 }])],
      ['a negative expected version', (h) => h.store.compareAndSet([{ key: 'k', expectedVersion: -1, value: 1 }])],
      ['an undefined value', (h) => h.store.compareAndSet([{ key: 'k', expectedVersion: 0, value: undefined }])],
      ['a TTL of 0', (h) => h.store.compareAndSet([{ key: 'k', expectedVersion: 0, value: 1, ttlMs: 0 }])],
      ['an expiry of -1 ms', (h) => h.store.expire('k', -1)],
      ['a list cap of 0', (h) => pushText(h.store, 'k', 'x', { maxLength: 0 })],
      ['a rate limit of 0', (h) => h.store.hitWindow('k', 0, 1000, 0)],
      ['a fractional claim limit', (h) => h.store.claimDue('k', 0, 1.5)],
      ['a NaN score', (h) => h.store.scoreSet('k', 'm', Number.NaN)],
      ['a NaN deadline with a write', (h) => writeWithDeadline(h, 'q', Number.NaN)],
      ['a deadline into a key the same compare-and-set writes', (h) => writeWithDeadline(h, 'k', 1)],
    ])('rejects %s and writes nothing', async (_, call) => {
      const harness = current();
      await expect(call(harness)).rejects.toThrow();
      expect(await harness.store.get('k')).toBeNull();
    });

    it('rejects calls once closed', async () => {
      const { store } = current();
      await store.close();
      await expect(store.get('doc:a')).rejects.toThrow();
    });
  });
}
