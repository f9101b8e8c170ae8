import { bracketSize, newMatch, type BracketMatch, type TeamId } from './bracket-match';
import { eliminationTree } from './single-elimination';

/**
 * Winners' bracket, losers' bracket and one grand final (no bracket reset: a league final is one
 * series, and a conditional second match has no status in the contract).
 *
 * Losers' round 1 pairs the losers of winners' round 1; each even losers' round meets the losers
 * dropping from the next winners' round (in reverse order every other time, to put off rematches);
 * each odd round after the first halves the field. A loser of a bye is an empty seat, so the bye
 * propagates down the losers' bracket instead of stalling it.
 */
export function doubleElimination(seeded: readonly TeamId[]): BracketMatch[] {
  const size = bracketSize(seeded.length);
  const depth = Math.log2(size);
  const matches = eliminationTree(seeded, 'winners', 'W');
  const losers = (round: number, number: number) => ({ source: { match: `W${round}.${number}`, take: 'loser' as const } });
  const lowerWinner = (round: number, number: number) => ({ source: { match: `L${round}.${number}`, take: 'winner' as const } });
  if (depth >= 2) {
    for (let number = 1; number <= size / 4; number += 1) {
      matches.push(newMatch(`L1.${number}`, 'losers', 1, number, losers(1, 2 * number - 1), losers(1, 2 * number)));
    }
    for (let i = 1; i <= depth - 1; i += 1) {
      const count = size / 2 ** (i + 1);
      for (let number = 1; number <= count; number += 1) {
        const dropping = i % 2 === 1 ? count + 1 - number : number;
        matches.push(newMatch(`L${2 * i}.${number}`, 'losers', 2 * i, number, lowerWinner(2 * i - 1, number), losers(i + 1, dropping)));
      }
      if (i <= depth - 2) {
        for (let number = 1; number <= count / 2; number += 1) {
          matches.push(
            newMatch(`L${2 * i + 1}.${number}`, 'losers', 2 * i + 1, number, lowerWinner(2 * i, 2 * number - 1), lowerWinner(2 * i, 2 * number)),
          );
        }
      }
    }
  }
  const lowerChampion = depth >= 2 ? lowerWinner(2 * depth - 2, 1) : losers(1, 1);
  matches.push(newMatch('GF', 'grand_final', 1, 1, { source: { match: `W${depth}.1`, take: 'winner' } }, lowerChampion));
  return matches;
}
