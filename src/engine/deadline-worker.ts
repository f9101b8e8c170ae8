import { DEFAULT_LEASE_MS, type LiveStore } from '../live/live-store';

export interface DueQueue {
  queue: string;
  /** Runs one claimed member; a throw puts it back a little later. */
  run(member: string): Promise<void>;
}

export interface DeadlineWorkerOptions {
  live: LiveStore;
  clock: () => number;
  queues: DueQueue[];
  intervalMs?: number;
  /** Members claimed per queue and round. */
  batch?: number;
  /** How far in the future a failed member is put back. */
  retryMs?: number;
  /** How long a claim is this worker's before another may take it (the worker may have died). */
  leaseMs?: number;
  onError: (error: unknown, queue: string, member?: string) => void;
}

export interface DeadlineWorker {
  /** Claims and runs what is due now; the loop calls it every interval, tests may call it directly. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Polls the durable queues of the live store. `claimDue` leases each due member to one caller
 * across all instances; the member leaves the queue only when its work is done (`completeDue`),
 * so a worker that dies between claim and apply leaves it due again when the lease ends, and
 * another instance runs it. The work therefore must bear running twice (a tick catches a lobby
 * up with the clock; a match already written is not written again). The queue outlives any
 * process, so a deadline survives restarts. The clock is injected so tests can move time.
 */
export function startDeadlineWorker(options: DeadlineWorkerOptions): DeadlineWorker {
  const { live, clock, queues, onError } = options;
  const intervalMs = options.intervalMs ?? 250;
  const batch = options.batch ?? 50;
  const retryMs = options.retryMs ?? 1_000;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<number> = Promise.resolve(0);

  /** Claims in batches until the queue has nothing due (or a bound is hit, to let the other queues run). */
  async function runQueue(due: DueQueue): Promise<number> {
    let total = 0;
    for (let round = 0; round < 20 && !stopped; round++) {
      const claimed = await runBatch(due);
      total += claimed;
      if (claimed < batch) break;
    }
    return total;
  }

  async function runBatch({ queue, run }: DueQueue): Promise<number> {
    const now = clock();
    const members = await live.claimDue(queue, now, batch, leaseMs);
    await Promise.all(
      members.map(async (member) => {
        try {
          await run(member);
          await live.completeDue(queue, member, now + leaseMs);
        } catch (error) {
          onError(error, queue, member);
          if (!stopped) await live.schedule(queue, member, clock() + retryMs).catch((e) => onError(e, queue, member));
        }
      }),
    );
    return members.length;
  }

  async function runOnce(): Promise<number> {
    let total = 0;
    for (const queue of queues) {
      try {
        total += await runQueue(queue);
      } catch (error) {
        onError(error, queue.queue);
      }
    }
    return total;
  }

  function loop(): void {
    if (stopped) return;
    round = runOnce().finally(() => {
      if (!stopped) timer = setTimeout(loop, intervalMs);
    });
  }
  timer = setTimeout(loop, intervalMs);

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round.catch(() => 0);
    },
  };
}
