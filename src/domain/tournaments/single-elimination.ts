import { bracketSize, newMatch, type BracketMatch, type StageKind, type TeamId } from './bracket-match';
import { seedOrder } from './seeding';

/**
 * The winners' tree shared by single elimination and the upper half of double elimination.
 * `seeded` is in seed order; round 1 seats them by `seedOrder`, later rounds take the winners of
 * the two matches above them.
 */
export function eliminationTree(seeded: readonly TeamId[], stage: StageKind, prefix: string): BracketMatch[] {
  const size = bracketSize(seeded.length);
  const order = seedOrder(size);
  const matches: BracketMatch[] = [];
  for (let number = 1; number <= size / 2; number += 1) {
    const home = seeded[order[2 * number - 2]! - 1] ?? null;
    const away = seeded[order[2 * number - 1]! - 1] ?? null;
    matches.push(newMatch(`${prefix}1.${number}`, stage, 1, number, { team: home }, { team: away }));
  }
  let count = size / 4;
  for (let round = 2; count >= 1; round += 1, count /= 2) {
    for (let number = 1; number <= count; number += 1) {
      matches.push(
        newMatch(
          `${prefix}${round}.${number}`,
          stage,
          round,
          number,
          { source: { match: `${prefix}${round - 1}.${2 * number - 1}`, take: 'winner' } },
          { source: { match: `${prefix}${round - 1}.${2 * number}`, take: 'winner' } },
        ),
      );
    }
  }
  return matches;
}

export function singleElimination(seeded: readonly TeamId[]): BracketMatch[] {
  return eliminationTree(seeded, 'single_elimination', 'R');
}
