import type { LiveStore } from '../live/live-store';
import type { Metrics } from './metrics';

/** The calls timed: every operation of the port except close (a shutdown step, not traffic). */
const OPERATIONS = new Set<string>([
  'get', 'getMany', 'compareAndSet', 'delete', 'expire', 'increment', 'publish', 'subscribe', 'scoreSet', 'scoreRange',
  'scoreRemoveBelow', 'schedule', 'unschedule', 'claimDue', 'completeDue', 'hitWindow', 'listPush', 'listRange',
]);

/**
 * The live store with every call timed and its failures counted, by operation name (a fixed set).
 * One wrapper at the port, so both stores (Redis, in-process) and every caller are covered.
 */
export function observedLiveStore(store: LiveStore, metrics: Pick<Metrics, 'liveStoreCall'>): LiveStore {
  return new Proxy(store, {
    get: (target, property, receiver) => {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
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
    },
  });
}
