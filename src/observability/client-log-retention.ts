import type { ClientLogRepository } from '../db/client-log-repository';
import type { LiveStore } from '../live/live-store';

export interface ClientLogRetentionDeps {
  repository: Pick<ClientLogRepository, 'deleteReceivedBefore'>;
  live: Pick<LiveStore, 'hitWindow'>;
  clock: () => number;
  /** Entries received longer ago than this are deleted (CLIENT_LOG_RETENTION_DAYS). */
  retentionDays: number;
  /** How often a sweep runs, across all instances together (default hourly). */
  everyMs?: number;
  /** Rows per DELETE (default 1000): each is a short statement, so no lock is held for long. */
  batchSize?: number;
  onError?: (error: unknown) => void;
  onSwept?: (deleted: number) => void;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** The first sweep waits a little after start-up, so instances starting together do not start with it. */
const FIRST_SWEEP_MS = 30_000;

/**
 * Deletes client log entries past the retention, in batches. One instance sweeps per period: the
 * first to take the period's single slot in the live store's shared window (the same atomic
 * counter as the rate limits); an instance that dies mid-sweep leaves the rest to the next period,
 * and a second sweep would only find fewer rows, so nothing depends on exactly-once.
 */
export class ClientLogRetention {
  readonly #everyMs: number;
  readonly #batchSize: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #closed = false;

  constructor(private readonly deps: ClientLogRetentionDeps) {
    this.#everyMs = deps.everyMs ?? 60 * 60 * 1000;
    this.#batchSize = deps.batchSize ?? 1000;
  }

  start(): void {
    const tick = () => {
      this.#running = this.sweep().catch((error) => this.deps.onError?.(error));
      this.#timer = setTimeout(tick, this.#everyMs).unref();
    };
    this.#timer = setTimeout(tick, Math.min(FIRST_SWEEP_MS, this.#everyMs)).unref();
  }

  /** One sweep if no instance has run one this period: answers whether it ran and how many rows went. */
  async sweep(): Promise<{ ran: boolean; deleted: number }> {
    const now = this.deps.clock();
    const slot = await this.deps.live.hitWindow('clientlogs:retention', now, this.#everyMs, 1);
    if (!slot.allowed) return { ran: false, deleted: 0 };
    const cutoff = new Date(now - this.deps.retentionDays * DAY_MS);
    let deleted = 0;
    for (;;) {
      const batch = await this.deps.repository.deleteReceivedBefore(cutoff, this.#batchSize);
      deleted += batch;
      if (batch < this.#batchSize || this.#closed) break;
      // Between batches the event loop and other transactions get their turn.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.deps.onSwept?.(deleted);
    return { ran: true, deleted };
  }

  /** Stops the timer and lets a running sweep finish its current batch. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#running;
  }
}
