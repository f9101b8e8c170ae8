import type { CasWrite, DueEntry, LiveStore, Publication } from '../live/live-store';
import { busy } from './engine-errors';

/**
 * One read-decide round: the writes to make together (and what they announce and the deadline
 * they set in the same atomic step), and the answer once they are made: `answer` given the
 * versions the writes got, or `value` when those do not matter.
 */
export type CasStep<T> = { writes: CasWrite[]; publish?: Publication; schedule?: DueEntry } & ({ value: T } | { answer: (versions: number[]) => T });

/** A round that could not decide yet (a lost document was rebuilt, a read went stale): read again. */
export const READ_AGAIN = Symbol('read again');

const MAX_ATTEMPTS = 200;

/** A little random wait after the first few lost races, so a crowd of writers spreads out. */
export async function backoff(attempt: number): Promise<void> {
  if (attempt < 3) return;
  await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(attempt, 20)));
}

const answerOf = <T>(step: CasStep<T>, versions: number[]): T => ('answer' in step ? step.answer(versions) : step.value);

/**
 * THE compare-and-set loop of the engines (lobby commands and their group commit, lobby
 * creation, party-join, parties): runs `step` (read, decide) and its compare-and-set until the
 * set goes through. A lost race means someone changed what was read, so the decision is taken
 * again on fresh state, after `backoff`; past MAX_ATTEMPTS the caller gets "busy" (409). A step
 * with no writes answers at once. Domain errors thrown by `step` pass through.
 */
export async function retryOnConflict<T>(live: LiveStore, step: (attempt: number) => Promise<CasStep<T> | typeof READ_AGAIN>): Promise<T> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    await backoff(attempt);
    const decided = await step(attempt);
    if (decided === READ_AGAIN) continue;
    if (decided.writes.length === 0) return answerOf(decided, []);
    const result = await live.compareAndSet(decided.writes, decided.publish, decided.schedule);
    if (result.ok) return answerOf(decided, result.versions);
  }
  throw busy();
}
