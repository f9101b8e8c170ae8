import { conflict, type DomainError } from '../domain-error';
import type { BracketMatch, MatchResult, SlotSource, TeamId } from './bracket-match';

/** Winner of a played result; null for a draw or when both sides forfeited. */
export function resultWinner(match: Pick<BracketMatch, 'homeTeamId' | 'awayTeamId'>, result: MatchResult): TeamId | null {
  if (result.forfeit === 'both') return null;
  if (result.forfeit === 'home') return match.awayTeamId;
  if (result.forfeit === 'away') return match.homeTeamId;
  if (result.homeScore > result.awayScore) return match.homeTeamId;
  if (result.awayScore > result.homeScore) return match.awayTeamId;
  return null;
}

function isResolved(match: BracketMatch): boolean {
  return match.status === 'confirmed' || match.status === 'bye';
}

/** The team a resolved match hands on, or null for an empty seat. */
function handOn(match: BracketMatch, take: SlotSource['take']): TeamId | null {
  if (take === 'winner') return match.winnerTeamId;
  if (match.status === 'bye') return null;
  if (match.result?.forfeit === 'both') return null;
  if (match.winnerTeamId === null) return null;
  return match.winnerTeamId === match.homeTeamId ? match.awayTeamId : match.homeTeamId;
}

type Seat = { known: true; team: TeamId | null } | { known: false };

function seat(source: SlotSource | null, seeded: TeamId | null, byKey: Map<string, BracketMatch>): Seat {
  if (source === null) return { known: true, team: seeded };
  const from = byKey.get(source.match);
  if (from === undefined || !isResolved(from)) return { known: false };
  return { known: true, team: handOn(from, source.take) };
}

export interface SettleOptions {
  /** Clear a played match whose teams changed under it instead of refusing. */
  resetDependents?: boolean;
}

/**
 * Derive every match's teams, status and winner from the seeds, the sources and the recorded
 * flows, in order (a source always comes before the match it feeds). A match that has a result
 * and whose teams changed because an earlier result was corrected is refused (conflict), or, with
 * `resetDependents`, cleared back to open; this is what keeps a correction from leaving a winner
 * advanced on a result that no longer holds (brackets-manager #219, #107).
 * Returns the new list; matches that did not change are the same objects, so a caller writes only
 * the ones that differ.
 */
export function settleBracket(
  matches: readonly BracketMatch[],
  options: SettleOptions = {},
): { ok: true; matches: BracketMatch[] } | { ok: false; error: DomainError } {
  const byKey = new Map<string, BracketMatch>();
  const settled: BracketMatch[] = [];
  for (const match of matches) {
    const home = seat(match.homeSource, match.homeTeamId, byKey);
    const away = seat(match.awaySource, match.awayTeamId, byKey);
    let next: BracketMatch = { ...match };
    if (home.known) next.homeTeamId = home.team;
    else if (match.homeSource !== null) next.homeTeamId = null;
    if (away.known) next.awayTeamId = away.team;
    else if (match.awaySource !== null) next.awayTeamId = null;

    const teamsChanged = next.homeTeamId !== match.homeTeamId || next.awayTeamId !== match.awayTeamId;
    if (teamsChanged && match.flow !== 'open') {
      if (!options.resetDependents) {
        return { ok: false, error: conflict(`match ${match.key} was already played; send reset_dependents to clear it`) };
      }
      next = { ...next, flow: 'open', result: null, reportedByTeamId: null, disputeReason: null };
    }
    next = { ...next, ...deriveStatus(next, home.known, away.known) };
    settled.push(sameAs(match, next) ? match : next);
    byKey.set(next.key, next);
  }
  return { ok: true, matches: settled };
}

function deriveStatus(match: BracketMatch, homeKnown: boolean, awayKnown: boolean): Pick<BracketMatch, 'status' | 'winnerTeamId'> {
  const { homeTeamId: home, awayTeamId: away } = match;
  if (homeKnown && awayKnown) {
    if (home === null || away === null) return { status: 'bye', winnerTeamId: home ?? away };
    if (match.flow === 'confirmed' && match.result !== null) return { status: 'confirmed', winnerTeamId: resultWinner(match, match.result) };
    if (match.flow === 'reported') return { status: 'reported', winnerTeamId: null };
    if (match.flow === 'disputed') return { status: 'disputed', winnerTeamId: null };
    return { status: 'ready', winnerTeamId: null };
  }
  if ((homeKnown && home !== null) || (awayKnown && away !== null)) return { status: 'waiting', winnerTeamId: null };
  return { status: 'locked', winnerTeamId: null };
}

function sameAs(a: BracketMatch, b: BracketMatch): boolean {
  return (
    a.homeTeamId === b.homeTeamId &&
    a.awayTeamId === b.awayTeamId &&
    a.status === b.status &&
    a.flow === b.flow &&
    a.winnerTeamId === b.winnerTeamId &&
    a.reportedByTeamId === b.reportedByTeamId &&
    a.disputeReason === b.disputeReason &&
    JSON.stringify(a.result) === JSON.stringify(b.result)
  );
}
