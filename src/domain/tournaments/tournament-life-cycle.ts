import { conflict, invalid, type DomainError } from '../domain-error';
import type { TournamentKind } from './bracket-match';

/** What is stored; `check_in` is not stored but read off the clock (see `effectiveStatus`). */
export type StoredStatus = 'signups' | 'running' | 'completed' | 'cancelled';
export type TournamentStatus = StoredStatus | 'check_in';

export interface TournamentSettings {
  name: string;
  format: string;
  kind: TournamentKind;
  maxTeams: number;
  bestOf: number;
  swissRounds: number | null;
  startsAt: Date;
  checkInMinutes: number;
  rosterLocked: boolean;
}

export interface TournamentHeader extends TournamentSettings {
  id: number;
  status: StoredStatus;
  version: number;
}

const MINUTE = 60_000;

/** Signups turn into check-in when the window opens; the stored row only changes at start. */
export function effectiveStatus(t: Pick<TournamentHeader, 'status' | 'startsAt' | 'checkInMinutes'>, now: Date): TournamentStatus {
  if (t.status !== 'signups') return t.status;
  if (t.checkInMinutes > 0 && now.getTime() >= t.startsAt.getTime() - t.checkInMinutes * MINUTE) return 'check_in';
  return 'signups';
}

/** Rules a settings change must keep; null when they hold. */
export function checkSettings(settings: TournamentSettings): DomainError | null {
  if (Number.isNaN(settings.startsAt.getTime())) return invalid('starts_at must be a date-time');
  if (settings.swissRounds !== null && settings.kind !== 'swiss') return invalid('swiss_rounds is only for a Swiss tournament');
  if (settings.kind === 'swiss' && settings.swissRounds !== null && settings.swissRounds > settings.maxTeams - 1) {
    return invalid('swiss_rounds must be fewer than max_teams');
  }
  return null;
}

/** Edits, entries and withdrawals happen only before the start. */
export function beforeStart(t: Pick<TournamentHeader, 'status'>, what: string): DomainError | null {
  return t.status === 'signups' ? null : conflict(`${what} is only possible before the tournament starts`);
}

export function checkInOpen(t: Pick<TournamentHeader, 'status' | 'startsAt' | 'checkInMinutes'>, now: Date): DomainError | null {
  if (t.checkInMinutes === 0) return conflict('this tournament has no check-in');
  return effectiveStatus(t, now) === 'check_in' ? null : conflict('check-in is not open');
}

export function cancellable(t: Pick<TournamentHeader, 'status'>): DomainError | null {
  return t.status === 'completed' || t.status === 'cancelled' ? conflict(`the tournament is already ${t.status}`) : null;
}
