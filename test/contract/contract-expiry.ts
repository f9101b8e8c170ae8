import { describe, expect, it } from 'vitest';
import type { LiveStore } from '../../src/live/live-store';
import { ACTABLE_TTL_MS, expectAfterExpiry, type LiveStoreHarness, passTime, pushText, SHORT_TTL_MS } from './live-store-harness';

const LONG_TTL_MS = 60_000;

/** TTLs on documents and on keys of every kind, and `expire`. */
export function expiryRules(current: () => LiveStoreHarness): void {
  describe('expiry', () => {
    it('removes a document when its TTL runs out, so it can be created again', async () => {
      const harness = current();
      const { store } = harness;
      await store.compareAndSet([{ key: 'ttl:a', expectedVersion: 0, value: 'x', ttlMs: SHORT_TTL_MS }]);
      await expectAfterExpiry(harness, SHORT_TTL_MS, async () => (await store.get('ttl:a')) === null, 'the document expired');
      expect(await store.compareAndSet([{ key: 'ttl:a', expectedVersion: 0, value: 'again' }])).toEqual({ ok: true, versions: [1] });
    });

    it('keeps a document readable before its TTL runs out', async () => {
      const harness = current();
      await harness.store.compareAndSet([{ key: 'ttl:a', expectedVersion: 0, value: 'x', ttlMs: LONG_TTL_MS }]);
      await passTime(harness, SHORT_TTL_MS);
      expect(await harness.store.get('ttl:a')).toEqual({ version: 1, value: 'x' });
    });

    it('drops the expiry of a document rewritten without a TTL', async () => {
      const harness = current();
      await harness.store.compareAndSet([{ key: 'ttl:a', expectedVersion: 0, value: 'x', ttlMs: ACTABLE_TTL_MS }]);
      await harness.store.compareAndSet([{ key: 'ttl:a', expectedVersion: 1, value: 'y' }]);
      await passTime(harness, ACTABLE_TTL_MS + 100);
      expect(await harness.store.get('ttl:a')).toEqual({ version: 2, value: 'y' });
    });

    it('resets an expiry with expire without changing the value or the version', async () => {
      const { store } = current();
      await store.compareAndSet([{ key: 'ttl:a', expectedVersion: 0, value: 'x' }]);
      expect(await store.expire('ttl:a', LONG_TTL_MS)).toBe(true);
      expect(await store.get('ttl:a')).toEqual({ version: 1, value: 'x' });
      expect(await store.compareAndSet([{ key: 'ttl:a', expectedVersion: 1, value: 'y' }])).toEqual({ ok: true, versions: [2] });
    });

    it('removes a document once the expiry set by expire runs out', async () => {
      const harness = current();
      await harness.store.compareAndSet([{ key: 'ttl:a', expectedVersion: 0, value: 'x' }]);
      await harness.store.expire('ttl:a', SHORT_TTL_MS);
      await expectAfterExpiry(harness, SHORT_TTL_MS, async () => (await harness.store.get('ttl:a')) === null, 'the document expired');
    });

    it('extends a TTL with expire', async () => {
      const harness = current();
      await harness.store.compareAndSet([{ key: 'ttl:a', expectedVersion: 0, value: 'x', ttlMs: ACTABLE_TTL_MS }]);
      await harness.store.expire('ttl:a', LONG_TTL_MS);
      await passTime(harness, ACTABLE_TTL_MS + 100);
      expect(await harness.store.get('ttl:a')).toEqual({ version: 1, value: 'x' });
    });

    it('answers false to expire on an absent key', async () => {
      expect(await current().store.expire('ttl:absent', LONG_TTL_MS)).toBe(false);
    });

    it.each<[string, (s: LiveStore) => Promise<unknown>, (s: LiveStore) => Promise<boolean>]>([
      ['a counter', (s) => s.increment('ttl:any'), async (s) => (await s.increment('ttl:any')) === 1],
      ['a list', (s) => pushText(s, 'ttl:any', 'x'), async (s) => (await s.listRange('ttl:any')).length === 0],
      ['a score set', (s) => s.scoreSet('ttl:any', 'm', 1), async (s) => (await s.scoreRange('ttl:any', -Infinity, Infinity)).length === 0],
    ])('expires %s too', async (_, write, isGone) => {
      const harness = current();
      await write(harness.store);
      expect(await harness.store.expire('ttl:any', SHORT_TTL_MS)).toBe(true);
      await expectAfterExpiry(harness, SHORT_TTL_MS, () => isGone(harness.store), 'the key expired');
    });
  });
}
