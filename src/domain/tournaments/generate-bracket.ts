import { conflict, fail, succeed, type Outcome } from '../domain-error';
import type { BracketMatch, TeamId, TournamentKind } from './bracket-match';
import { doubleElimination } from './double-elimination';
import { roundRobin } from './round-robin';
import { settleBracket } from './settle-bracket';
import { singleElimination } from './single-elimination';
import { pairSwissRound } from './swiss';

/** The bracket a tournament starts with, settled (byes resolved, first matches ready). */
export function generateBracket(kind: TournamentKind, seeded: readonly TeamId[], swissRounds: number | null): Outcome<BracketMatch[], never> {
  if (seeded.length < 2) return fail(conflict('a tournament needs at least 2 teams to start'));
  let matches: BracketMatch[];
  if (kind === 'single_elimination') matches = singleElimination(seeded);
  else if (kind === 'double_elimination') matches = doubleElimination(seeded);
  else if (kind === 'round_robin') matches = roundRobin(seeded);
  else {
    const first = pairSwissRound(seeded, [], swissRounds ?? defaultSwissRounds(seeded.length));
    if (!first.ok) return first;
    matches = first.state;
  }
  const settled = settleBracket(matches);
  if (!settled.ok) return fail(settled.error);
  return succeed(settled.matches);
}

/** Enough rounds to leave one unbeaten team: ceil(log2(teams)). */
export function defaultSwissRounds(teams: number): number {
  return Math.max(1, Math.ceil(Math.log2(teams)));
}
