import type { LiveStore } from '../live/live-store';
import type { Metrics } from './metrics';

/** The calls timed: every operation of the port except close (a shutdown step, not traffic). */
const OPERATIONS = new Set<string>([
  'get', 'getMany', 'versions', 'getParts', 'compareAndSet', 'commit', 'delete', 'expire', 'increment', 'publish', 'subscribe', 'scoreSet', 'scoreRange',
  'scoreRemoveBelow', 'schedule', 'unschedule', 'claimDue', 'completeDue', 'hitWindow', 'pushNumbered', 'listRange',
]);

/**
 * The live store with every call timed and its failures counted, by operation name (a fixed set).
 * One wrapper at the port, so both stores (Redis, in-process) and every caller are covered.
 */
export function observedLiveStore(store: LiveStore, metrics: Pick<Metrics, 'liveStoreCall'>): LiveStore {
  // One function per method, made on first use: every command reaches the store through here
  // several times, and a fresh bound function per access was garbage for each.
  const made = new Map<PropertyKey, { of: unknown; fn: unknown }>();
  return new Proxy(store, {
    get: (target, property, receiver) => {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const known = made.get(property);
      if (known !== undefined && known.of === value) return known.fn;
      const fn = wrap(target, property, value as (...args: unknown[]) => unknown);
      made.set(property, { of: value, fn });
      return fn;
    },
  });

  function wrap(target: LiveStore, property: PropertyKey, value: (...args: unknown[]) => unknown): unknown {
    if (typeof property !== 'string' || !OPERATIONS.has(property)) return value.bind(target);
    return (...args: unknown[]) => {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      return (value.apply(target, args) as Promise<unknown>).then(
        (result) => {
          metrics.liveStoreCall(property, seconds(), false);
          return result;
        },
        (error: unknown) => {
          metrics.liveStoreCall(property, seconds(), true);
          throw error;
        },
      );
    };
  }
}
