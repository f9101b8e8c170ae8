/** GET /api/users/online lists users active within this window (spec, Limits). */
export const ONLINE_WINDOW_MS = 5 * 60 * 1000;

/** The earliest last-seen time that still counts as online at `now`. */
export const onlineSince = (now: number): number => now - ONLINE_WINDOW_MS;

export const isOnline = (lastSeenAt: number | null, now: number): boolean =>
  lastSeenAt !== null && lastSeenAt >= onlineSince(now);
