import { conflict, type DomainError } from '../domain-error';

/**
 * A team's place in a competition that has not ended, as the competitions area reports it
 * (src/teams/team-competitions.ts). The rules below are what a roster change must respect
 * while the team plays in it.
 */
export interface CompetitionEntry {
  teamId: number;
  competitionId: number;
  /** Running with `roster_locked`: joins, leaves and kicks wait for an admin. */
  rosterLocked: boolean;
  /** The fewest players the competition's format needs; a locked roster may not drop below it. */
  minRoster: number;
  /** The most players a roster may hold there; null: no cap. */
  maxRoster: number | null;
}

export type TransferAction = 'join' | 'leave' | 'kick';

/** While any of the team's entries is locked, roster changes become approvals. */
export const rosterLocked = (teamId: number, entries: readonly CompetitionEntry[]): boolean =>
  entries.some((e) => e.teamId === teamId && e.rosterLocked);

/** A team entered in a competition that has not ended cannot be disbanded. */
export const enteredAnywhere = (teamId: number, entries: readonly CompetitionEntry[]): boolean => entries.some((e) => e.teamId === teamId);

/**
 * A player joining `teamId` must not already be on another team entered in one of the same
 * competitions (one player, one roster per tournament), and the roster must stay within every cap.
 * `entries` holds the entries of the joining team and of every team the player is on now.
 */
export function checkJoin(teamId: number, rosterSizeAfter: number, entries: readonly CompetitionEntry[]): DomainError | null {
  const mine = entries.filter((e) => e.teamId === teamId);
  const competitions = new Set(mine.map((e) => e.competitionId));
  if (entries.some((e) => e.teamId !== teamId && competitions.has(e.competitionId))) {
    return conflict('the player is on another team entered in the same tournament');
  }
  if (mine.some((e) => e.maxRoster !== null && rosterSizeAfter > e.maxRoster)) return conflict('the roster would exceed the maximum of a tournament it is entered in');
  return null;
}

/** A leave or a kick must not drop a locked roster below what its competition needs. */
export function checkDeparture(teamId: number, rosterSizeAfter: number, entries: readonly CompetitionEntry[]): DomainError | null {
  if (entries.some((e) => e.teamId === teamId && e.rosterLocked && rosterSizeAfter < e.minRoster)) {
    return conflict('the roster would fall below the minimum of a tournament it plays in');
  }
  return null;
}

/** The rule a transfer must pass now, given the roster size it would leave. */
export function checkTransfer(action: TransferAction, teamId: number, rosterSizeAfter: number, entries: readonly CompetitionEntry[]): DomainError | null {
  return action === 'join' ? checkJoin(teamId, rosterSizeAfter, entries) : checkDeparture(teamId, rosterSizeAfter, entries);
}
