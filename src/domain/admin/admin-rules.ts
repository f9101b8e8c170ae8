import { conflict, invalid, type DomainError } from '../domain-error';
import { banOver, type BanRecord } from '../access/ban';

/** A ban must end in the future (or never) and an admin cannot lock themself out. */
export function banProblem(input: { actorId: number; userId: number; expiresAt: number | null; now: number }): DomainError | null {
  if (input.userId === input.actorId) return conflict('you cannot ban yourself');
  if (input.expiresAt !== null && input.expiresAt <= input.now) return invalid('expires_at: must be in the future');
  return null;
}

/** Only a ban not yet over can be lifted: lifting a lifted or expired ban is a conflict, not a no-op. */
export function liftProblem(ban: BanRecord, now: number): DomainError | null {
  return banOver(ban, now) ? conflict('the ban is no longer in force') : null;
}

/** A window [starts_at, ends_at) must not be empty. */
export function windowProblem(startsAt: number, endsAt: number | null): DomainError | null {
  return endsAt !== null && endsAt <= startsAt ? invalid('ends_at: must be after starts_at') : null;
}
