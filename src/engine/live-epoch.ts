import type { LiveStore, ReadGuard } from '../live/live-store';
import { LiveStoreUnavailable } from '../live/live-store-unavailable';
import { machineTime } from '../clock/machine-time';

/** The marker: present in the live store from start-up on; its absence means the store's data was lost. */
export const LIVE_EPOCH_KEY = '~live-epoch';

/**
 * Versions a rebuilt lobby gets start at `epoch * EPOCH_SPAN`: above every version served in
 * earlier epochs, as long as no lobby moves through this many versions in one epoch. The product
 * fits Postgres's int column for about 2,000 epochs (losses of Redis's data).
 */
export const EPOCH_SPAN = 1_000_000;

/**
 * The marker's value. `rebuilding` while the instance that found the loss puts back what
 * Postgres keeps; absent once that is done (and in markers older versions wrote).
 */
interface EpochMarker {
  epoch: number;
  rebuilding?: true;
}

/** A rebuild marker whose instance died mid-way expires, and the next check starts another. */
const REBUILDING_TTL_MS = 60_000;
/** How long a command waits for a rebuild under way before it answers 503. */
const DEFAULT_REBUILD_WAIT_MS = 10_000;
const POLL_MS = 25;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());

export interface LiveEpochDeps {
  live: LiveStore;
  /** A new epoch from Postgres (LiveEpochRepository). */
  nextEpoch: () => Promise<number>;
  /** Rebuilds everything the live store held that Postgres can give back (open lobbies, their list, index and deadlines). */
  rebuild: (epoch: number) => Promise<void>;
  onError: (error: unknown) => void;
  /** How often every instance checks for the marker (default 1000 ms). */
  checkEveryMs?: number;
  /** How long `whole` waits for a rebuild before it gives up with LiveStoreUnavailable (default 10 s). */
  rebuildWaitMs?: number;
}

/**
 * Detects the loss of the live store's data (a Redis restarted without persistence, a FLUSHALL)
 * by the marker key, and answers the current epoch. The instance that finds the marker gone takes
 * a new epoch from Postgres, puts the marker back (compare-and-set: one instance wins) and
 * rebuilds at once rather than on first touch.
 *
 * Until that rebuild is done the index of who is in which lobby is incomplete, so the commands
 * that rest on it (create, join, party-join: the one-lobby rule) wait for it through `whole`, and
 * commit guarded by the marker's version: a loss between their reads and their write (the marker
 * gone or rebuilding again) makes the write fail, and they read again once the store is whole.
 */
export class LiveEpoch {
  #pending: Promise<number> | null = null;
  /** This instance's rebuild under way, if any. */
  #rebuilding: Promise<void> | null = null;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(private readonly deps: LiveEpochDeps) {}

  /** The epoch the live store is in; a lost marker is handled (new epoch, rebuild started) on the way. */
  async current(): Promise<number> {
    const marker = await this.deps.live.get<EpochMarker>(LIVE_EPOCH_KEY);
    if (marker) return marker.value.epoch;
    return (this.#pending ??= this.#renew().finally(() => (this.#pending = null)));
  }

  /**
   * The marker as a guard, once no rebuild is under way (starting one if the marker is gone): the
   * commands that rest on the membership index read it first and commit guarded by it.
   */
  async whole(): Promise<ReadGuard> {
    const giveUpAt = machineTime.elapsed() + (this.deps.rebuildWaitMs ?? DEFAULT_REBUILD_WAIT_MS);
    for (;;) {
      const marker = await this.deps.live.get<EpochMarker>(LIVE_EPOCH_KEY);
      if (marker && !marker.value.rebuilding) return { key: LIVE_EPOCH_KEY, expectedVersion: marker.version };
      if (machineTime.elapsed() > giveUpAt) throw new LiveStoreUnavailable('the live store is being rebuilt after a loss of its data; retry shortly');
      if (!marker) await this.current();
      // Our own rebuild is awaited (within the wait); another instance's is polled.
      else await Promise.race([this.#rebuilding ?? pause(POLL_MS), pause(giveUpAt - machineTime.elapsed() + 1)]);
    }
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
    const marker: EpochMarker = { epoch, rebuilding: true };
    const put = await this.deps.live.compareAndSet([{ key: LIVE_EPOCH_KEY, expectedVersion: 0, value: marker, ttlMs: REBUILDING_TTL_MS }]);
    if (!put.ok) {
      const found = await this.deps.live.get<EpochMarker>(LIVE_EPOCH_KEY);
      if (found) return found.value.epoch;
    }
    // Not awaited by the caller that found the loss: its own restore goes ahead with the new epoch.
    const rebuilding = (this.#rebuilding = this.deps
      .rebuild(epoch)
      .then(async () => {
        // Whole again, unless the store lost its data once more meanwhile (the marker moved).
        if (put.ok) await this.deps.live.compareAndSet([{ key: LIVE_EPOCH_KEY, expectedVersion: put.versions[0], value: { epoch } }]);
      })
      .catch(this.deps.onError)
      .finally(() => {
        if (this.#rebuilding === rebuilding) this.#rebuilding = null;
      }));
    return epoch;
  }
}
