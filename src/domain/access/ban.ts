export interface BanRecord {
  /** null: a permanent ban. */
  expiresAt: number | null;
  /** Set when an admin lifts the ban early. */
  liftedAt: number | null;
}

/** A ban holds from when it is given until it expires or is lifted, whichever comes first. */
export function isBanned(ban: BanRecord | null, now: number): boolean {
  if (ban === null) return false;
  if (ban.liftedAt !== null && ban.liftedAt <= now) return false;
  if (ban.expiresAt !== null && ban.expiresAt <= now) return false;
  return true;
}
