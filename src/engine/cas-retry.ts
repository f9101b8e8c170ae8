import type { CasWrite, CommitResult, DueEntry, LiveStore, Publication, ReadGuard, WindowCheck } from '../live/live-store';
import { busy } from './engine-errors';

/**
 * One read-decide round: the writes to make together (and what they announce, the deadline they
 * set, the limit hits they count and the reads they rest on, in the same atomic step: see Commit),
 * and the answer once they are made: `answer` given the versions the writes got, or `value` when
 * those do not matter.
 */
export type CasStep<T> = { writes: CasWrite[]; publish?: Publication; schedule?: DueEntry; guards?: ReadGuard[]; hits?: WindowCheck[] } & (
  | { value: T }
  | { answer: (versions: number[]) => T }
);

/** Why the last round's commit did not go through: a limit refused, or what it rested on moved (with the documents as they are now). */
export type CommitFailure = Exclude<CommitResult, { ok: true }>;

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
 * creation, party-join, parties): runs `step` (read, decide) and its commit until the commit
 * goes through. A lost race means someone changed what was read, so the decision is taken again
 * on fresh state, after `backoff`; the step is given the failure, whose documents spare it a read.
 * Past MAX_ATTEMPTS the caller gets "busy" (409). A step with nothing to write, guard or count
 * answers at once. Domain errors thrown by `step` pass through.
 */
export async function retryOnConflict<T>(
  live: LiveStore,
  step: (attempt: number, failed: CommitFailure | null) => Promise<CasStep<T> | typeof READ_AGAIN>,
): Promise<T> {
  let failed: CommitFailure | null = null;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    // A refused limit is no race: the step answers it at once.
    if (failed === null || !('refused' in failed)) await backoff(attempt);
    const decided = await step(attempt, failed);
    failed = null;
    if (decided === READ_AGAIN) continue;
    const { writes, publish, schedule, guards, hits } = decided;
    if (writes.length === 0 && !guards?.length && !hits?.length) return answerOf(decided, []);
    const result = await live.commit({ writes, publish, schedule, guards, hits });
    if (result.ok) return answerOf(decided, result.versions);
    failed = result;
  }
  throw busy();
}
