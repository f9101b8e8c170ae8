import type { LiveStore } from '../live/live-store';

/** The marker: present in the live store from start-up on; its absence means the store's data was lost. */
export const LIVE_EPOCH_KEY = '~live-epoch';

/**
 * Versions a rebuilt lobby gets start at `epoch * EPOCH_SPAN`: above every version served in
 * earlier epochs, as long as no lobby moves through this many versions in one epoch. The product
 * fits Postgres's int column for about 2,000 epochs (losses of Redis's data).
 */
export const EPOCH_SPAN = 1_000_000;

export interface LiveEpochDeps {
  live: LiveStore;
  /** A new epoch from Postgres (LiveEpochRepository). */
  nextEpoch: () => Promise<number>;
  /** Rebuilds everything the live store held that Postgres can give back (open lobbies, their list, index and deadlines). */
  rebuild: (epoch: number) => Promise<void>;
  onError: (error: unknown) => void;
  /** How often every instance checks for the marker (default 1000 ms). */
  checkEveryMs?: number;
}

/**
 * Detects the loss of the live store's data (a Redis restarted without persistence, a FLUSHALL)
 * by the marker key, and answers the current epoch. The instance that finds the marker gone takes
 * a new epoch from Postgres, puts the marker back (compare-and-set: one instance wins) and
 * rebuilds at once rather than on first touch.
 */
export class LiveEpoch {
  #pending: Promise<number> | null = null;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(private readonly deps: LiveEpochDeps) {}

  /** The epoch the live store is in; a lost marker is handled (new epoch, rebuild started) on the way. */
  async current(): Promise<number> {
    const marker = await this.deps.live.get<{ epoch: number }>(LIVE_EPOCH_KEY);
    if (marker) return marker.value.epoch;
    return (this.#pending ??= this.#renew().finally(() => (this.#pending = null)));
  }

  /** Checks now and then every interval, until `stop`. */
  async start(): Promise<void> {
    await this.current();
    const tick = () => {
      if (this.#stopped) return;
      this.current().catch(this.deps.onError).finally(() => {
        if (!this.#stopped) this.#timer = setTimeout(tick, this.deps.checkEveryMs ?? 1_000);
      });
    };
    this.#timer = setTimeout(tick, this.deps.checkEveryMs ?? 1_000);
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  async #renew(): Promise<number> {
    const epoch = await this.deps.nextEpoch();
    const put = await this.deps.live.compareAndSet([{ key: LIVE_EPOCH_KEY, expectedVersion: 0, value: { epoch } }]);
    if (!put.ok) {
      const marker = await this.deps.live.get<{ epoch: number }>(LIVE_EPOCH_KEY);
      if (marker) return marker.value.epoch;
    }
    // Not awaited by the caller that found the loss: its own restore goes ahead with the new epoch.
    void this.deps.rebuild(epoch).catch(this.deps.onError);
    return epoch;
  }
}
