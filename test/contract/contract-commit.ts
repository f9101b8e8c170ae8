import { describe, expect, it } from 'vitest';
import type { LiveStoreHarness } from './live-store-harness';

const LOBBY = { code: 'ABC', votes: { '1': 'cp_a' }, pool: [1, 2], version: 7 };

/** A command's one step (commit): documents in parts, guarded reads, limit hits beside the writes. */
export function commitRules(current: () => LiveStoreHarness): void {
  describe('commit', () => {
    it('stores a document in parts and reads it back whole', async () => {
      const { store } = current();
      expect(await store.compareAndSet([{ key: 'doc:p', expectedVersion: 0, value: LOBBY, parts: 'all' }])).toEqual({ ok: true, versions: [1] });
      expect(await store.get('doc:p')).toEqual({ version: 1, value: LOBBY });
    });

    it('writes only the parts named: the others stay, a named part absent from the value is removed', async () => {
      const { store } = current();
      await store.compareAndSet([{ key: 'doc:p', expectedVersion: 0, value: LOBBY, parts: 'all' }]);
      // The value's pool is not named, so the stored pool stays: only the named parts move.
      const next = { code: 'ABC', pool: [], version: 8 };
      expect(await store.compareAndSet([{ key: 'doc:p', expectedVersion: 1, value: next, parts: ['version', 'votes'] }])).toEqual({ ok: true, versions: [2] });
      expect(await store.get('doc:p')).toEqual({ version: 2, value: { code: 'ABC', pool: [1, 2], version: 8 } });
    });

    it('rewrites a document in one piece over one in parts, and in parts again over that', async () => {
      const { store } = current();
      await store.compareAndSet([{ key: 'doc:p', expectedVersion: 0, value: LOBBY, parts: 'all' }]);
      await store.compareAndSet([{ key: 'doc:p', expectedVersion: 1, value: { only: true } }]);
      expect(await store.get('doc:p')).toEqual({ version: 2, value: { only: true } });
      await store.compareAndSet([{ key: 'doc:p', expectedVersion: 2, value: { code: 'X' }, parts: 'all' }]);
      expect(await store.get('doc:p')).toEqual({ version: 3, value: { code: 'X' } });
    });

    it('refuses to write some parts of a document stored in one piece, and writes nothing', async () => {
      const { store } = current();
      await store.compareAndSet([{ key: 'doc:p', expectedVersion: 0, value: LOBBY }]);
      await expect(store.compareAndSet([{ key: 'doc:p', expectedVersion: 1, value: { version: 8 }, parts: ['version'] }])).rejects.toThrow(/WRONGFORM/);
      expect(await store.get('doc:p')).toEqual({ version: 1, value: LOBBY });
    });

    it('refuses some parts of a new document, or parts of what is not an object, before anything is written', async () => {
      const { store } = current();
      await expect(store.compareAndSet([{ key: 'doc:p', expectedVersion: 0, value: LOBBY, parts: ['votes'] }])).rejects.toThrow(RangeError);
      await expect(store.compareAndSet([{ key: 'doc:p', expectedVersion: 0, value: [1], parts: 'all' }])).rejects.toThrow(TypeError);
      expect(await store.get('doc:p')).toBeNull();
    });

    it('writes only while every guard is still at the version read', async () => {
      const { store } = current();
      await store.compareAndSet([{ key: 'doc:g', expectedVersion: 0, value: 'read' }]);
      const write = { key: 'doc:w', expectedVersion: 0, value: 'decided' };
      expect(await store.commit({ guards: [{ key: 'doc:g', expectedVersion: 1 }, { key: 'doc:none', expectedVersion: 0 }], writes: [write] })).toEqual({
        ok: true,
        versions: [1],
      });
      expect(await store.get('doc:w')).toEqual({ version: 1, value: 'decided' });
    });

    it('answers a conflict with every guarded and written document as it is now, and writes nothing', async () => {
      const { store } = current();
      await store.compareAndSet([{ key: 'doc:g', expectedVersion: 0, value: 'moved' }]);
      await store.compareAndSet([{ key: 'doc:p', expectedVersion: 0, value: LOBBY, parts: 'all' }]);
      const result = await store.commit({
        guards: [{ key: 'doc:g', expectedVersion: 0 }],
        writes: [{ key: 'doc:p', expectedVersion: 1, value: { ...LOBBY, pool: [] }, parts: ['pool'] }, { key: 'doc:w', expectedVersion: 0, value: 1 }],
      });
      expect(result).toEqual({
        ok: false,
        conflictKey: 'doc:g',
        current: new Map<string, unknown>([
          ['doc:g', { version: 1, value: 'moved' }],
          ['doc:p', { version: 1, value: LOBBY }],
          ['doc:w', null],
        ]),
      });
      expect(await store.getMany(['doc:p', 'doc:w'])).toEqual([{ version: 1, value: LOBBY }, null]);
    });

    it('counts its limit hits with the writes, two hits on one window as two', async () => {
      const { store } = current();
      const hit = { key: 'rate:c', now: 1000, windowMs: 10_000, limit: 3 };
      expect(await store.commit({ hits: [hit, hit], writes: [{ key: 'doc:w', expectedVersion: 0, value: 1 }] })).toEqual({ ok: true, versions: [1] });
      expect(await store.hitWindow('rate:c', 1001, 10_000, 3)).toEqual({ allowed: true, count: 3, retryAfterMs: 0 });
    });

    it('refuses the whole step when one hit is over its limit: nothing counted, nothing written', async () => {
      const { store } = current();
      await store.hitWindow('rate:full', 1000, 10_000, 1);
      const result = await store.commit({
        hits: [{ key: 'rate:free', now: 1500, windowMs: 10_000, limit: 5 }, { key: 'rate:full', now: 1500, windowMs: 10_000, limit: 1 }],
        writes: [{ key: 'doc:w', expectedVersion: 0, value: 1 }],
      });
      expect(result).toEqual({ ok: false, refused: [{ allowed: true, count: 1, retryAfterMs: 0 }, { allowed: false, count: 1, retryAfterMs: 9_500 }] });
      expect(await store.get('doc:w')).toBeNull();
      expect(await store.hitWindow('rate:free', 1501, 10_000, 5)).toEqual({ allowed: true, count: 1, retryAfterMs: 0 });
    });

    it('counts the hits of a step that lost its race: the command was tried', async () => {
      const { store } = current();
      await store.compareAndSet([{ key: 'doc:w', expectedVersion: 0, value: 1 }]);
      const result = await store.commit({ hits: [{ key: 'rate:c', now: 1000, windowMs: 10_000, limit: 1 }], writes: [{ key: 'doc:w', expectedVersion: 0, value: 2 }] });
      expect(result.ok).toBe(false);
      expect(await store.hitWindow('rate:c', 1001, 10_000, 1)).toMatchObject({ allowed: false });
    });

    it('refuses a key guarded and written in one step', async () => {
      const { store } = current();
      await expect(store.commit({ guards: [{ key: 'doc:w', expectedVersion: 0 }], writes: [{ key: 'doc:w', expectedVersion: 0, value: 1 }] })).rejects.toThrow(
        /guarded twice or also written/,
      );
    });
  });
}
