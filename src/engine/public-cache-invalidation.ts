import type { LiveStore } from '../live/live-store';
import { PUBLIC_CACHE_CHANNEL } from './live-keys';

export interface PublicCacheInvalidation {
  /** Drops the topic here at once and, through the live store's pub/sub, in every other instance. */
  invalidate(topic: string): void;
  stop(): Promise<void>;
}

/** This instance's cache of the public reads. */
export interface LocalPublicCache {
  invalidate(topic: string): void;
  invalidateAll(): void;
}

/**
 * Each instance caches the public reads for 30 s; a change made through one instance must drop the
 * stale entry everywhere. The local drop is immediate so a client reading back from the instance
 * that answered its command never sees the old page. When the subscription was interrupted,
 * another instance's invalidation may have been lost: everything here is dropped.
 */
export async function startPublicCacheInvalidation(
  live: LiveStore,
  local: LocalPublicCache,
  onError: (error: unknown) => void,
): Promise<PublicCacheInvalidation> {
  const unsubscribe = await live.subscribe(PUBLIC_CACHE_CHANNEL, (topic) => local.invalidate(topic), () => local.invalidateAll());
  return {
    invalidate(topic) {
      local.invalidate(topic);
      live.publish(PUBLIC_CACHE_CHANNEL, topic).catch(onError);
    },
    stop: unsubscribe,
  };
}
