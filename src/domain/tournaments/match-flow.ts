import { conflict, fail, forbidden, invalid, notFound, succeed, type Outcome } from '../domain-error';
import { isEliminationStage, type BracketMatch, type Forfeit, type TeamId } from './bracket-match';
import { settleBracket } from './settle-bracket';

/** What a result write hands back: the whole settled bracket and the match it was about. */
export interface ResultWrite {
  matches: BracketMatch[];
  match: BracketMatch;
}

export type MatchEvent = { type: 'match_reported' | 'match_confirmed' | 'match_disputed' | 'match_result_set'; key: string };

const MAX_SCORE = 99;

function findMatch(matches: readonly BracketMatch[], key: string): BracketMatch | undefined {
  return matches.find((match) => match.key === key);
}

function checkScores(match: BracketMatch, homeScore: number, awayScore: number, forfeit: Forfeit | null): string | null {
  for (const [name, score] of [['home_score', homeScore], ['away_score', awayScore]] as const) {
    if (!Number.isInteger(score) || score < 0 || score > MAX_SCORE) return `${name} must be an integer from 0 to ${MAX_SCORE}`;
  }
  if (forfeit === null && homeScore === awayScore && isEliminationStage(match.stage)) {
    return 'a draw is not allowed in an elimination stage';
  }
  return null;
}

function sideOf(match: BracketMatch, team: TeamId): 'home' | 'away' | null {
  if (match.homeTeamId === team) return 'home';
  if (match.awayTeamId === team) return 'away';
  return null;
}

function write(matches: readonly BracketMatch[], updated: BracketMatch, resetDependents: boolean, event: MatchEvent): Outcome<ResultWrite, MatchEvent> {
  const replaced = matches.map((match) => (match.key === updated.key ? updated : match));
  const settled = settleBracket(replaced, { resetDependents });
  if (!settled.ok) return fail(settled.error);
  return succeed({ matches: settled.matches, match: findMatch(settled.matches, updated.key)! }, [event]);
}

/** A team's leader or captain reports the score of a ready match. */
export function reportResult(
  matches: readonly BracketMatch[],
  key: string,
  byTeam: TeamId | null,
  homeScore: number,
  awayScore: number,
): Outcome<ResultWrite, MatchEvent> {
  const match = findMatch(matches, key);
  if (match === undefined) return fail(notFound('match not found'));
  if (match.status !== 'ready') return fail(conflict('the match is not ready for a report'));
  if (byTeam === null || sideOf(match, byTeam) === null) return fail(forbidden('only a leader or captain of a team in this match may report'));
  const problem = checkScores(match, homeScore, awayScore, null);
  if (problem !== null) return fail(invalid(problem));
  return write(
    matches,
    { ...match, flow: 'reported', result: { homeScore, awayScore, forfeit: null }, reportedByTeamId: byTeam },
    false,
    { type: 'match_reported', key },
  );
}

function checkOtherTeam(match: BracketMatch | undefined, byTeam: TeamId | null): Outcome<BracketMatch, never> {
  if (match === undefined) return fail(notFound('match not found'));
  if (byTeam === null || sideOf(match, byTeam) === null) return fail(forbidden('only a leader or captain of a team in this match may answer a report'));
  if (match.status !== 'reported') return fail(conflict('the match has no report waiting for an answer'));
  if (match.reportedByTeamId === byTeam) return fail(forbidden('the other team answers a report'));
  return succeed(match);
}

/** The other team confirms: the result stands and the winner moves on at once. */
export function confirmResult(matches: readonly BracketMatch[], key: string, byTeam: TeamId | null): Outcome<ResultWrite, MatchEvent> {
  const checked = checkOtherTeam(findMatch(matches, key), byTeam);
  if (!checked.ok) return fail(checked.error);
  return write(matches, { ...checked.state, flow: 'confirmed' }, false, { type: 'match_confirmed', key });
}

/** The other team disputes: the match waits for an admin result. */
export function disputeResult(matches: readonly BracketMatch[], key: string, byTeam: TeamId | null, reason: string): Outcome<ResultWrite, MatchEvent> {
  const checked = checkOtherTeam(findMatch(matches, key), byTeam);
  if (!checked.ok) return fail(checked.error);
  const trimmed = reason.trim();
  if (trimmed === '') return fail(invalid('reason must not be empty'));
  return write(matches, { ...checked.state, flow: 'disputed', disputeReason: trimmed }, false, { type: 'match_disputed', key });
}

export interface AdminResultInput {
  homeScore: number;
  awayScore: number;
  forfeit: Forfeit | null;
  resetDependents: boolean;
}

/**
 * An admin sets or corrects the result of any match that has both teams, also after the winner
 * moved on: dependants not yet played follow, played ones are refused unless `resetDependents`.
 */
export function setAdminResult(matches: readonly BracketMatch[], key: string, input: AdminResultInput): Outcome<ResultWrite, MatchEvent> {
  const match = findMatch(matches, key);
  if (match === undefined) return fail(notFound('match not found'));
  if (match.homeTeamId === null || match.awayTeamId === null || match.status === 'bye') {
    return fail(conflict('the match does not have both teams yet'));
  }
  const problem = checkScores(match, input.homeScore, input.awayScore, input.forfeit);
  if (problem !== null) return fail(invalid(problem));
  return write(
    matches,
    {
      ...match,
      flow: 'confirmed',
      result: { homeScore: input.homeScore, awayScore: input.awayScore, forfeit: input.forfeit },
      disputeReason: null,
    },
    input.resetDependents,
    { type: 'match_result_set', key },
  );
}

/** Every match has an outcome: nothing left to play in what exists so far. */
export function allResolved(matches: readonly BracketMatch[]): boolean {
  return matches.every((match) => match.status === 'confirmed' || match.status === 'bye');
}
