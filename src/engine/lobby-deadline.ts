import { nextDeadline, type LobbyState } from '../domain/lobby';
import type { DueEntry } from '../live/live-store';
import { LOBBY_DEADLINES } from './live-keys';

/**
 * The deadline a lobby's compare-and-set sets together with its write (see DueEntry), so that the
 * queue holds the newest state's deadline without a read after the write. Set when the written
 * state's next deadline differs from the one read (the queue already holds that one), and always
 * when `renew`: for a tick, whose claim holds the entry at its lease end until a new deadline
 * replaces it (completeDue drops it otherwise), and for a lobby rebuilt from Postgres, whose entry
 * may be gone with the rest of the live state. A state with no deadline leaves the queue as it is,
 * as `LobbyEffects.schedule` does: a stale entry costs one tick that changes nothing.
 */
export function lobbyDeadline(before: LobbyState, after: LobbyState, now: number, renew: boolean): DueEntry | undefined {
  const dueAt = nextDeadline(after, now);
  if (dueAt === null || (!renew && dueAt === nextDeadline(before, now))) return undefined;
  return { queue: LOBBY_DEADLINES, member: after.code, dueAt };
}
