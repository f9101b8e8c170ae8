import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeStandings, generateBracket, seedOrder, type BracketMatch } from '../../../src/domain/tournaments';
import { playOut, seededRandom, teams } from './play-bracket';

function generated(kind: 'single_elimination' | 'double_elimination', count: number): BracketMatch[] {
  const outcome = generateBracket(kind, teams(count), null);
  if (!outcome.ok) throw outcome.error;
  return outcome.state;
}

function lossesOf(matches: BracketMatch[]): Map<number, number> {
  const losses = new Map<number, number>();
  for (const match of matches) {
    if (match.status !== 'confirmed') continue;
    const loser = match.winnerTeamId === match.homeTeamId ? match.awayTeamId! : match.homeTeamId!;
    losses.set(loser, (losses.get(loser) ?? 0) + 1);
  }
  return losses;
}

describe('single elimination', () => {
  it('seeds the top two so they can only meet in the final', () => {
    expect(seedOrder(8)).toEqual([1, 8, 4, 5, 2, 7, 3, 6]);
  });

  it('gives the byes to the top seeds', () => {
    const matches = generated('single_elimination', 5);
    const byes = matches.filter((m) => m.status === 'bye').map((m) => m.winnerTeamId);
    expect(byes.sort()).toEqual([1, 2, 3]);
  });

  it('plays every team until it is eliminated, for 2 to 33 teams', () => {
    for (let count = 2; count <= 33; count += 1) {
      const random = seededRandom(count);
      const played = playOut(generated('single_elimination', count), () => random() < 0.5);
      expect(played.every((m) => m.status === 'confirmed' || m.status === 'bye')).toBe(true);
      const losses = lossesOf(played);
      const champion = played.at(-1)!.winnerTeamId!;
      for (const team of teams(count)) expect(losses.get(team) ?? 0).toBe(team === champion ? 0 : 1);
      expect(played.filter((m) => m.status === 'confirmed')).toHaveLength(count - 1);
    }
  });

  it('handles 256 teams with a bye for every missing seat', () => {
    const played = playOut(generated('single_elimination', 200), (m) => m.homeTeamId! < m.awayTeamId!);
    expect(played.at(-1)!.winnerTeamId).toBe(1);
    expect(played.filter((m) => m.status === 'confirmed')).toHaveLength(199);
  });
});

describe('double elimination', () => {
  // One grand final without a bracket reset: its loser may have lost only that match.
  it('plays every team until its second loss or the grand final, for 2 to 33 teams', () => {
    for (let count = 2; count <= 33; count += 1) {
      const random = seededRandom(count * 7);
      const played = playOut(generated('double_elimination', count), () => random() < 0.5);
      expect(played.every((m) => m.status === 'confirmed' || m.status === 'bye')).toBe(true);
      const final = played.find((m) => m.key === 'GF')!;
      const champion = final.winnerTeamId!;
      const runnerUp = champion === final.homeTeamId ? final.awayTeamId : final.homeTeamId;
      const losses = lossesOf(played);
      for (const team of teams(count)) {
        if (team === champion) expect(losses.get(team) ?? 0).toBeLessThanOrEqual(1);
        else if (team === runnerUp) expect([1, 2]).toContain(losses.get(team));
        else expect(losses.get(team)).toBe(2);
      }
    }
  });

  it('ends a random 8-team bracket with exactly one champion and every team ranked', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
        const random = seededRandom(seed);
        const played = playOut(generated('double_elimination', 8), () => random() < 0.5);
        const standings = computeStandings('double_elimination', teams(8), played);
        expect(standings.filter((row) => row.rank === 1)).toHaveLength(1);
        expect(standings.map((row) => row.teamId).sort((a, b) => a - b)).toEqual(teams(8));
        expect(standings.find((row) => row.rank === 1)!.teamId).toBe(played.find((m) => m.key === 'GF')!.winnerTeamId);
        expect(standings.find((row) => row.rank === 2)).toBeDefined();
      }),
      { numRuns: 200 },
    );
  });

  it('carries byes down the losers bracket instead of stalling it', () => {
    const matches = generated('double_elimination', 5);
    const played = playOut(matches, (m) => m.homeTeamId! < m.awayTeamId!);
    expect(played.find((m) => m.key === 'GF')!.status).toBe('confirmed');
  });
});
