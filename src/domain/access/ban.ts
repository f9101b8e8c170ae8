export interface BanRecord {
  /** When the ban was given: it holds from then. */
  startsAt: number;
  /** null: a permanent ban. */
  expiresAt: number | null;
  /** Set when an admin lifts the ban early. */
  liftedAt: number | null;
}

/**
 * Whether a ban is over at `now`: it expired or was lifted. A ban that is not over may still lie
 * ahead of its start (one an instance with a slower clock sees early).
 */
export function banOver(ban: BanRecord, now: number): boolean {
  return (ban.liftedAt !== null && ban.liftedAt <= now) || (ban.expiresAt !== null && ban.expiresAt <= now);
}

/**
 * The one definition of a ban in force: from when it is given until it expires or is lifted,
 * whichever comes first. The SQL of src/db/ban-repository.ts says the same on the table.
 */
export function isBanned(ban: BanRecord | null, now: number): boolean {
  return ban !== null && ban.startsAt <= now && !banOver(ban, now);
}
