import { ONLINE_WINDOW_MS } from '../domain/access/online';
import type { LiveStore } from '../live/live-store';

const KEY = 'presence';
/** One instance writes a given user's heartbeat at most this often: online needs minutes, not milliseconds. */
const TOUCH_EVERY_MS = 30_000;

/**
 * Who is online: a sorted set of user id -> last activity in the live store, shared by every
 * instance. A request or a socket heartbeat marks activity; no database write is involved.
 */
export class Presence {
  private readonly lastTouched = new Map<number, number>();

  constructor(
    private readonly live: LiveStore,
    private readonly clock: () => number,
  ) {}

  touch(userId: number): Promise<void> | undefined {
    const now = this.clock();
    const last = this.lastTouched.get(userId);
    if (last !== undefined && now - last < TOUCH_EVERY_MS) return undefined;
    this.lastTouched.set(userId, now);
    if (this.lastTouched.size > 50_000) this.forgetOlderThan(now - TOUCH_EVERY_MS);
    return this.live.scoreSet(KEY, String(userId), now);
  }

  async onlineUserIds(): Promise<number[]> {
    const now = this.clock();
    const members = await this.live.scoreRange(KEY, now - ONLINE_WINDOW_MS, Number.POSITIVE_INFINITY);
    return members.map(Number);
  }

  async countOnline(): Promise<number> {
    return (await this.onlineUserIds()).length;
  }

  /** Drops entries that left the window; any instance may run it, it is idempotent. */
  prune(): Promise<void> {
    return this.live.scoreRemoveBelow(KEY, this.clock() - ONLINE_WINDOW_MS);
  }

  private forgetOlderThan(cutoff: number): void {
    for (const [id, at] of this.lastTouched) if (at < cutoff) this.lastTouched.delete(id);
  }
}
