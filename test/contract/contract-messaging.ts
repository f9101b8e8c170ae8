import { describe, expect, it, vi } from 'vitest';
import type { LiveStoreContractOptions, LiveStoreHarness } from './live-store-harness';
import { waitForCount } from './live-store-harness';

/**
 * Publish/subscribe. "Not delivered" is proven without a fixed sleep: a marker published after the
 * message on a channel still listened to arrives after it, so once the marker is in, the message
 * would have been too.
 */
export function messagingRules(current: () => LiveStoreHarness, options: LiveStoreContractOptions): void {
  describe('publish/subscribe', () => {
    it('delivers a published message to a subscriber', async () => {
      const { store } = current();
      const received: string[] = [];
      await store.subscribe('chan:a', (message) => received.push(message));
      await store.publish('chan:a', 'hello');
      await waitForCount(received, 1, 'delivery');
      expect(received).toEqual(['hello']);
    });

    it('delivers later, never inside publish itself', async () => {
      const { store } = current();
      const received: string[] = [];
      await store.subscribe('chan:a', (message) => received.push(message));
      const published = store.publish('chan:a', 'hello');
      expect(received).toEqual([]);
      await published;
      await waitForCount(received, 1, 'delivery');
    });

    it('delivers to every handler of the channel, in publish order', async () => {
      const { store } = current();
      const first: string[] = [];
      const second: string[] = [];
      await store.subscribe('chan:a', (message) => first.push(message));
      await store.subscribe('chan:a', (message) => second.push(message));
      for (const message of ['1', '2', '3']) await store.publish('chan:a', message);
      await waitForCount(first, 3, 'first handler');
      await waitForCount(second, 3, 'second handler');
      expect([first, second]).toEqual([['1', '2', '3'], ['1', '2', '3']]);
    });

    it('keeps channels apart', async () => {
      const { store } = current();
      const onA: string[] = [];
      const onB: string[] = [];
      await store.subscribe('chan:a', (message) => onA.push(message));
      await store.subscribe('chan:b', (message) => onB.push(message));
      await store.publish('chan:a', 'for a');
      await store.publish('chan:b', 'for b');
      await waitForCount(onB, 1, 'marker on b');
      expect([onA, onB]).toEqual([['for a'], ['for b']]);
    });

    it('stops delivering to an unsubscribed handler while the others still receive', async () => {
      const { store } = current();
      const leaving: string[] = [];
      const staying: string[] = [];
      const unsubscribe = await store.subscribe('chan:a', (message) => leaving.push(message));
      await store.subscribe('chan:a', (message) => staying.push(message));
      await unsubscribe();
      await store.publish('chan:a', 'after');
      await waitForCount(staying, 1, 'remaining handler');
      expect(leaving).toEqual([]);
    });

    it('stops delivering on a channel once its last handler unsubscribes', async () => {
      const { store } = current();
      const left: string[] = [];
      const marker: string[] = [];
      const unsubscribe = await store.subscribe('chan:a', (message) => left.push(message));
      await store.subscribe('chan:marker', (message) => marker.push(message));
      await unsubscribe();
      await store.publish('chan:a', 'after');
      await store.publish('chan:marker', 'done');
      await waitForCount(marker, 1, 'marker');
      expect(left).toEqual([]);
    });

    it('treats each subscription of one function as its own', async () => {
      const { store } = current();
      const received: string[] = [];
      const handler = (message: string) => received.push(message);
      const unsubscribeOnce = await store.subscribe('chan:a', handler);
      await store.subscribe('chan:a', handler);
      await unsubscribeOnce();
      await unsubscribeOnce();
      await store.publish('chan:a', 'x');
      await store.publish('chan:a', 'y');
      await waitForCount(received, 2, 'deliveries');
      expect(received).toEqual(['x', 'y']);
    });

    it('keeps delivering to other handlers when one throws, and reports the error', async () => {
      const { store } = current();
      const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        const received: string[] = [];
        await store.subscribe('chan:a', () => {
          throw new Error('handler failure');
        });
        await store.subscribe('chan:a', (message) => received.push(message));
        await store.publish('chan:a', 'x');
        await waitForCount(received, 1, 'delivery to the healthy handler');
        expect(reported).toHaveBeenCalledWith(expect.stringContaining('chan:a'), expect.objectContaining({ message: 'handler failure' }));
      } finally {
        reported.mockRestore();
      }
    });

    it.runIf(options.sharedAcrossInstances)('delivers a message published by another instance', async () => {
      const { store, openPeer } = current();
      const peer = await openPeer!();
      const received: string[] = [];
      await store.subscribe('chan:a', (message) => received.push(message));
      await peer.publish('chan:a', 'from the peer');
      await waitForCount(received, 1, 'cross-instance delivery');
      expect(received).toEqual(['from the peer']);
    });
  });
}
