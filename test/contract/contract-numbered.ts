import { describe, expect, it } from 'vitest';
import type { LiveStore, NumberedPush } from '../../src/live/live-store';
import { pushText, waitForCount, type LiveStoreContractOptions, type LiveStoreHarness } from './live-store-harness';

const push = (store: LiveStore, text: string, extra: Partial<NumberedPush> = {}) => pushText(store, 'chat', text, extra);

/** Numbered pushes (lobby chat) and reads of a document's named parts. */
export function numberedRules(current: () => LiveStoreHarness, options: LiveStoreContractOptions): void {
  describe('numbered pushes', () => {
    it('numbers each entry from its sequence and stores it with its number', async () => {
      const { store } = current();
      expect(await push(store, 'one')).toEqual({ ok: true, number: 1 });
      expect(await push(store, 'two')).toEqual({ ok: true, number: 2 });
      expect(await store.listRange('chat')).toEqual([{ n: 1, text: 'one' }, { n: 2, text: 'two' }]);
    });

    it('counts on from the same counter increment counts on', async () => {
      const { store } = current();
      await store.increment('chat:seq');
      expect(await push(store, 'one')).toEqual({ ok: true, number: 2 });
      expect(await store.increment('chat:seq')).toBe(3);
    });

    it('keeps only the newest maxLength entries', async () => {
      const { store } = current();
      for (const text of ['a', 'b', 'c', 'd']) await push(store, text, { maxLength: 2 });
      expect(await store.listRange('chat')).toEqual([{ n: 3, text: 'c' }, { n: 4, text: 'd' }]);
    });

    it('publishes every message with the number the entry got, in list order', async () => {
      const { store } = current();
      const received: string[] = [];
      await store.subscribe('feed', (message) => received.push(message));
      const publish = (text: string) => ({ channel: 'feed', messages: [{ before: 'first ', after: ` ${text}` }, { before: 'second ', after: '' }] });
      await push(store, 'one', { publish: publish('one') });
      await push(store, 'two', { publish: publish('two') });
      await waitForCount(received, 4, 'published messages');
      expect(received).toEqual(['first 1 one', 'second 1', 'first 2 two', 'second 2']);
    });

    it('counts its limit hits with the push, as hitWindow counts them', async () => {
      const { store } = current();
      const hits = [{ key: 'rate:chat', now: 1000, windowMs: 10_000, limit: 2 }];
      expect(await push(store, 'one', { hits })).toEqual({ ok: true, number: 1 });
      expect(await store.hitWindow('rate:chat', 1001, 10_000, 3)).toEqual({ allowed: true, count: 2, retryAfterMs: 0 });
    });

    it('does nothing at all when a hit is refused: no number, no entry, no message, no hit counted', async () => {
      const { store } = current();
      const received: string[] = [];
      await store.subscribe('feed', (message) => received.push(message));
      const hits = [{ key: 'rate:chat', now: 1000, windowMs: 10_000, limit: 1 }];
      const publish = { channel: 'feed', messages: [{ before: '', after: '' }] };
      await push(store, 'one', { hits, publish });
      const refused = await push(store, 'two', { hits: [{ ...hits[0], now: 4000 }], publish });
      expect(refused).toEqual({ ok: false, refused: [{ allowed: false, count: 1, retryAfterMs: 7000 }] });
      expect(await store.listRange('chat')).toEqual([{ n: 1, text: 'one' }]);
      expect(await store.increment('chat:seq')).toBe(2);
      await store.publish('feed', 'marker');
      await waitForCount(received, 2, 'the first message and the marker');
      expect(received).toEqual(['1', 'marker']);
      expect((await store.hitWindow('rate:chat', 4001, 10_000, 2)).count).toBe(2);
    });

    it('refuses a list key that holds another kind of data, writing nothing', async () => {
      const { store } = current();
      await store.compareAndSet([{ key: 'chat', expectedVersion: 0, value: 'a document' }]);
      await expect(push(store, 'one')).rejects.toThrow(/WRONGTYPE/);
      expect(await store.increment('chat:seq')).toBe(1);
    });

    it('ranges an absent list as empty', async () => {
      expect(await current().store.listRange('chat:absent')).toEqual([]);
    });

    it("pushes only while its guard holds: the document's part one of the values, none of the named parts there", async () => {
      const { store } = current();
      const guard = { key: 'lobby', part: 'phase', oneOf: ['gathering', 'live'], without: ['~pending'] };
      await store.compareAndSet([{ key: 'lobby', expectedVersion: 0, value: { phase: 'gathering', n: 1 }, parts: 'all' }]);
      expect(await push(store, 'open', { guard })).toEqual({ ok: true, number: 1 });
      await store.compareAndSet([{ key: 'lobby', expectedVersion: 1, value: { phase: 'ended' }, parts: ['phase'] }]);
      expect(await push(store, 'ended', { guard })).toEqual({ ok: false, unmet: true });
      await store.compareAndSet([{ key: 'lobby', expectedVersion: 2, value: { phase: 'live', '~pending': { until: 1 } }, parts: ['phase', '~pending'] }]);
      expect(await push(store, 'pending', { guard })).toEqual({ ok: false, unmet: true });
      expect(await store.listRange('chat')).toEqual([{ n: 1, text: 'open' }]);
      expect(await store.increment('chat:seq')).toBe(2);
    });

    it('finds its guard unmet on an absent document and on one stored in one piece', async () => {
      const { store } = current();
      const guard = { key: 'lobby', part: 'phase', oneOf: ['gathering'], without: [] };
      expect(await push(store, 'absent', { guard })).toEqual({ ok: false, unmet: true });
      await store.compareAndSet([{ key: 'lobby', expectedVersion: 0, value: { phase: 'gathering' } }]);
      expect(await push(store, 'whole', { guard })).toEqual({ ok: false, unmet: true });
      expect(await store.listRange('chat')).toEqual([]);
    });

    it('counts no hit when its guard does not hold, and refuses an over-limit hit before looking at the guard', async () => {
      const { store } = current();
      const guard = { key: 'lobby', part: 'phase', oneOf: ['gathering'], without: [] };
      const hits = [{ key: 'rate:chat', now: 1000, windowMs: 10_000, limit: 1 }];
      expect(await push(store, 'unmet', { guard, hits })).toEqual({ ok: false, unmet: true });
      expect(await push(store, 'counted', { hits })).toEqual({ ok: true, number: 1 });
      expect(await push(store, 'over', { guard, hits })).toEqual({ ok: false, refused: [{ allowed: false, count: 1, retryAfterMs: 10_000 }] });
    });

    it('pushes only while every document it read is at its version, an absent one at 0', async () => {
      const { store } = current();
      const versions = [{ key: 'generation', expectedVersion: 0 }];
      expect(await push(store, 'before', { versions })).toEqual({ ok: true, number: 1 });
      await store.compareAndSet([{ key: 'generation', expectedVersion: 0, value: 'g1' }]);
      expect(await push(store, 'stale', { versions })).toEqual({ ok: false, unmet: true });
      expect(await push(store, 'current', { versions: [{ key: 'generation', expectedVersion: 1 }] })).toEqual({ ok: true, number: 2 });
      expect(await store.listRange('chat')).toEqual([
        { n: 1, text: 'before' },
        { n: 2, text: 'current' },
      ]);
    });

    it('counts no hit and gives no number when a document it read has moved on, whatever its part guard says', async () => {
      const { store } = current();
      await store.compareAndSet([{ key: 'lobby', expectedVersion: 0, value: { phase: 'gathering' }, parts: 'all' }]);
      await store.compareAndSet([{ key: 'generation', expectedVersion: 0, value: 'g1' }]);
      const guard = { key: 'lobby', part: 'phase', oneOf: ['gathering'], without: [] };
      const hits = [{ key: 'rate:chat', now: 1000, windowMs: 10_000, limit: 1 }];
      expect(await push(store, 'stale', { guard, hits, versions: [{ key: 'generation', expectedVersion: 0 }] })).toEqual({ ok: false, unmet: true });
      expect(await push(store, 'counted', { guard, hits, versions: [{ key: 'generation', expectedVersion: 1 }] })).toEqual({ ok: true, number: 1 });
    });

    it('refuses a version guard that is not a whole number >= 0, pushing nothing', async () => {
      const { store } = current();
      await expect(push(store, 'bad', { versions: [{ key: 'generation', expectedVersion: -1 }] })).rejects.toThrow(/expectedVersion/);
      expect(await store.listRange('chat')).toEqual([]);
    });

    it.runIf(options.sharedAcrossInstances)('numbers the entries of racing instances in list order, none twice', async () => {
      const { store, openPeer } = current();
      const stores = [store, await openPeer!()];
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => push(stores[i % 2], `m${i}`, { maxLength: 100 })));
      const stored = await store.listRange<{ n: number }>('chat');
      expect(stored.map((entry) => entry.n)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(new Set(results.map((result) => (result.ok ? result.number : 0))).size).toBe(40);
    });
  });

  describe('parts reads', () => {
    it('reads only the named parts of a document written in parts, with its version', async () => {
      const { store } = current();
      await store.compareAndSet([{ key: 'doc', expectedVersion: 0, value: { phase: 'live', big: 'x'.repeat(100), n: 0 }, parts: 'all' }]);
      expect(await store.getParts('doc', ['phase', 'n'])).toEqual({ version: 1, value: { phase: 'live', n: 0 } });
    });

    it('leaves out a part the document lacks, and reads an absent document as null', async () => {
      const { store } = current();
      await store.compareAndSet([{ key: 'doc', expectedVersion: 0, value: { phase: 'live' }, parts: 'all' }]);
      expect(await store.getParts('doc', ['phase', 'gone'])).toEqual({ version: 1, value: { phase: 'live' } });
      expect(await store.getParts('absent', ['phase'])).toBeNull();
    });

    it('reads the parts of a document written as one piece, and those a later parts write changed', async () => {
      const { store } = current();
      await store.compareAndSet([{ key: 'whole', expectedVersion: 0, value: { phase: 'gathering', n: 1 } }]);
      expect(await store.getParts('whole', ['phase'])).toEqual({ version: 1, value: { phase: 'gathering' } });
      await store.compareAndSet([{ key: 'parted', expectedVersion: 0, value: { phase: 'gathering', n: 1 }, parts: 'all' }]);
      await store.compareAndSet([{ key: 'parted', expectedVersion: 1, value: { phase: 'live', n: 1 }, parts: ['phase'] }]);
      expect(await store.getParts('parted', ['phase', 'n'])).toEqual({ version: 2, value: { phase: 'live', n: 1 } });
    });
  });
}
