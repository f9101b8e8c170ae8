import { newMatch, type BracketMatch, type TeamId } from './bracket-match';

/**
 * Every pair once, by the circle method: the first team stays, the others rotate. With an odd
 * count one team sits each round out (no match is written for it; a sit-out is no result).
 */
export function roundRobin(seeded: readonly TeamId[]): BracketMatch[] {
  const circle: (TeamId | null)[] = [...seeded];
  if (circle.length % 2 === 1) circle.push(null);
  const matches: BracketMatch[] = [];
  const half = circle.length / 2;
  for (let round = 1; round < circle.length; round += 1) {
    let number = 0;
    for (let i = 0; i < half; i += 1) {
      const a = circle[i]!;
      const b = circle[circle.length - 1 - i]!;
      if (a === null || b === null) continue;
      number += 1;
      // Alternate sides so no team is always home.
      const [home, away] = (round + i) % 2 === 0 ? [a, b] : [b, a];
      matches.push(newMatch(`RR${round}.${number}`, 'round_robin', round, number, { team: home }, { team: away }));
    }
    circle.splice(1, 0, circle.pop()!);
  }
  return matches;
}
