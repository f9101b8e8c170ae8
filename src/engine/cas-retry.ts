import type { CasWrite, LiveStore } from '../live/live-store';
import { busy } from './engine-errors';

/** One read-decide round: the writes to make together, and what to answer once they are made. */
export interface CasStep<T> {
  writes: CasWrite[];
  value: T;
}

const MAX_ATTEMPTS = 200;

/** A little random wait after the first few lost races, so a crowd of writers spreads out. */
export async function backoff(attempt: number): Promise<void> {
  if (attempt < 3) return;
  await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(attempt, 20)));
}

/**
 * Runs `step` (read, decide) and its compare-and-set until the set goes through: a lost race
 * means someone changed what was read, so the decision is taken again on fresh state. A step with
 * no writes answers at once. Domain errors thrown by `step` pass through.
 */
export async function retryOnConflict<T>(live: LiveStore, step: (attempt: number) => Promise<CasStep<T>>): Promise<T> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    await backoff(attempt);
    const { writes, value } = await step(attempt);
    if (writes.length === 0) return value;
    if ((await live.compareAndSet(writes)).ok) return value;
  }
  throw busy();
}
