import { describe, expect, it } from 'vitest';
import { pushText, type LiveStoreHarness } from './live-store-harness';

/** Score sets, deadline queues and rate windows (numbered lists: contract-numbered.ts). Times here are arguments, not the clock. */
export function orderedRules(current: () => LiveStoreHarness): void {
  describe('score sets', () => {
    it('ranges members by score, bounds included, ties by member', async () => {
      const { store } = current();
      for (const [member, score] of [['d', 40], ['b', 20], ['c', 20], ['a', 10], ['e', 50]] as const) await store.scoreSet('scores', member, score);
      expect(await store.scoreRange('scores', 20, 40)).toEqual(['b', 'c', 'd']);
      expect(await store.scoreRange('scores', -Infinity, Infinity)).toEqual(['a', 'b', 'c', 'd', 'e']);
    });

    it('moves a member whose score is set again', async () => {
      const { store } = current();
      await store.scoreSet('scores', 'a', 10);
      await store.scoreSet('scores', 'b', 20);
      await store.scoreSet('scores', 'a', 30);
      expect(await store.scoreRange('scores', 0, 100)).toEqual(['b', 'a']);
    });

    it('removes the members strictly below a score', async () => {
      const { store } = current();
      for (const [member, score] of [['a', 10], ['b', 20], ['c', 30]] as const) await store.scoreSet('scores', member, score);
      await store.scoreRemoveBelow('scores', 20);
      expect(await store.scoreRange('scores', -Infinity, Infinity)).toEqual(['b', 'c']);
    });

    it('ranges an absent set as empty', async () => {
      expect(await current().store.scoreRange('scores:absent', -Infinity, Infinity)).toEqual([]);
    });
  });

  describe('deadline queues', () => {
    it('claims the members due at now, earliest first, and leaves the later ones', async () => {
      const { store } = current();
      await store.schedule('queue', 'late', 300);
      await store.schedule('queue', 'second', 200);
      await store.schedule('queue', 'first', 100);
      expect(await store.claimDue('queue', 200, 10)).toEqual(['first', 'second']);
      expect(await store.claimDue('queue', 300, 10)).toEqual(['late']);
    });

    it('hands each due member out once', async () => {
      const { store } = current();
      await store.schedule('queue', 'once', 100);
      expect(await store.claimDue('queue', 100, 10)).toEqual(['once']);
      expect(await store.claimDue('queue', 100, 10)).toEqual([]);
    });

    it('claims at most limit members and keeps the rest for the next claim', async () => {
      const { store } = current();
      for (const [member, at] of [['a', 1], ['b', 2], ['c', 3]] as const) await store.schedule('queue', member, at);
      expect(await store.claimDue('queue', 10, 2)).toEqual(['a', 'b']);
      expect(await store.claimDue('queue', 10, 2)).toEqual(['c']);
    });

    it('leases a claimed member: due again at the lease end unless its claim is completed', async () => {
      const { store } = current();
      await store.schedule('queue', 'abandoned', 100);
      await store.schedule('queue', 'done', 100);
      expect(await store.claimDue('queue', 100, 10, 50)).toEqual(['abandoned', 'done']);
      await store.completeDue('queue', 'done', 150);
      expect(await store.claimDue('queue', 149, 10, 50)).toEqual([]);
      expect(await store.claimDue('queue', 150, 10, 50)).toEqual(['abandoned']);
    });

    it('keeps a claimed member that was scheduled again before its claim was completed', async () => {
      const { store } = current();
      await store.schedule('queue', 'next', 100);
      expect(await store.claimDue('queue', 100, 10, 50)).toEqual(['next']);
      await store.schedule('queue', 'next', 400);
      await store.completeDue('queue', 'next', 150);
      expect(await store.claimDue('queue', 400, 10, 50)).toEqual(['next']);
    });

    it('moves a deadline that is scheduled again', async () => {
      const { store } = current();
      await store.schedule('queue', 'moved', 100);
      await store.schedule('queue', 'moved', 500);
      expect(await store.claimDue('queue', 100, 10)).toEqual([]);
      expect(await store.claimDue('queue', 500, 10)).toEqual(['moved']);
    });

    it('sets the deadline given with a compare-and-set whose writes happen, moving it as schedule does', async () => {
      const { store } = current();
      await store.schedule('queue', 'lobby', 500);
      const written = await store.compareAndSet([{ key: 'doc', expectedVersion: 0, value: 'v1' }], undefined, { queue: 'queue', member: 'lobby', dueAt: 100 });
      expect(written).toEqual({ ok: true, versions: [1] });
      expect(await store.claimDue('queue', 100, 10)).toEqual(['lobby']);
    });

    it('leaves the queue untouched when a compare-and-set is refused', async () => {
      const { store } = current();
      await store.schedule('queue', 'lobby', 500);
      const stale = [{ key: 'doc', expectedVersion: 3, value: 'late' }];
      expect(await store.compareAndSet(stale, undefined, { queue: 'queue', member: 'lobby', dueAt: 100 })).toEqual({ ok: false, conflictKey: 'doc' });
      expect(await store.compareAndSet(stale, undefined, { queue: 'queue', member: 'new', dueAt: 100 })).toEqual({ ok: false, conflictKey: 'doc' });
      expect(await store.claimDue('queue', 499, 10)).toEqual([]);
      expect(await store.claimDue('queue', 500, 10)).toEqual(['lobby']);
    });

    it('keeps a claimed member whose deadline a compare-and-set set again before the claim was completed', async () => {
      const { store } = current();
      await store.schedule('queue', 'next', 100);
      expect(await store.claimDue('queue', 100, 10, 50)).toEqual(['next']);
      await store.compareAndSet([{ key: 'doc', expectedVersion: 0, value: 'v1' }], undefined, { queue: 'queue', member: 'next', dueAt: 400 });
      await store.completeDue('queue', 'next', 150);
      expect(await store.claimDue('queue', 400, 10, 50)).toEqual(['next']);
    });

    it('fails a compare-and-set whose deadline queue holds another kind of data, writing nothing', async () => {
      const { store } = current();
      await pushText(store, 'kind:list', 'x');
      const call = store.compareAndSet([{ key: 'doc', expectedVersion: 0, value: 'v1' }], undefined, { queue: 'kind:list', member: 'm', dueAt: 100 });
      await expect(call).rejects.toThrow(/WRONGTYPE/);
      expect(await store.get('doc')).toBeNull();
    });

    it('never hands out an unscheduled member', async () => {
      const { store } = current();
      await store.schedule('queue', 'kept', 100);
      await store.schedule('queue', 'dropped', 100);
      await store.unschedule('queue', 'dropped');
      expect(await store.claimDue('queue', 100, 10)).toEqual(['kept']);
    });
  });

  describe('rate windows', () => {
    it('allows limit hits within the window, counting them, then refuses', async () => {
      const { store } = current();
      const hits = [];
      for (const now of [1000, 1001, 1002, 1003]) hits.push(await store.hitWindow('rate', now, 100, 3));
      expect(hits).toEqual([
        { allowed: true, count: 1, retryAfterMs: 0 },
        { allowed: true, count: 2, retryAfterMs: 0 },
        { allowed: true, count: 3, retryAfterMs: 0 },
        { allowed: false, count: 3, retryAfterMs: 97 },
      ]);
    });

    it('slides: a hit leaves the window windowMs after it was made, one at a time', async () => {
      const { store } = current();
      await store.hitWindow('rate', 1000, 100, 2);
      await store.hitWindow('rate', 1050, 100, 2);
      expect(await store.hitWindow('rate', 1099, 100, 2)).toEqual({ allowed: false, count: 2, retryAfterMs: 1 });
      expect(await store.hitWindow('rate', 1100, 100, 2)).toEqual({ allowed: true, count: 2, retryAfterMs: 0 });
      expect(await store.hitWindow('rate', 1120, 100, 2)).toEqual({ allowed: false, count: 2, retryAfterMs: 30 });
    });

    it('does not count refused hits', async () => {
      const { store } = current();
      await store.hitWindow('rate', 1000, 100, 1);
      for (const now of [1010, 1020, 1030]) expect((await store.hitWindow('rate', now, 100, 1)).allowed).toBe(false);
      expect(await store.hitWindow('rate', 1100, 100, 1)).toEqual({ allowed: true, count: 1, retryAfterMs: 0 });
    });

    it('counts two hits at the same millisecond as two', async () => {
      const { store } = current();
      await store.hitWindow('rate', 1000, 100, 2);
      expect(await store.hitWindow('rate', 1000, 100, 2)).toEqual({ allowed: true, count: 2, retryAfterMs: 0 });
    });

    it('keeps the windows of different keys apart', async () => {
      const { store } = current();
      await store.hitWindow('rate:a', 1000, 100, 1);
      expect((await store.hitWindow('rate:b', 1000, 100, 1)).allowed).toBe(true);
    });
  });
}
