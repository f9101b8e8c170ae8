import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeStandings, generateBracket, pairSwissRound, settleBracket, type BracketMatch } from '../../../src/domain/tournaments';
import { playOut, seededRandom, teams } from './play-bracket';

const pairOf = (m: BracketMatch) => [m.homeTeamId!, m.awayTeamId!].sort((a, b) => a - b).join(':');

describe('round robin', () => {
  it('has every pair play exactly once, for 2 to 33 teams', () => {
    for (let count = 2; count <= 33; count += 1) {
      const outcome = generateBracket('round_robin', teams(count), null);
      if (!outcome.ok) throw outcome.error;
      const pairs = outcome.state.map(pairOf);
      expect(new Set(pairs).size).toBe(pairs.length);
      expect(pairs).toHaveLength((count * (count - 1)) / 2);
      for (const match of outcome.state) expect(match.status).toBe('ready');
    }
  });

  it('ranks the points table by points', () => {
    const outcome = generateBracket('round_robin', teams(4), null);
    if (!outcome.ok) throw outcome.error;
    const played = playOut(outcome.state, (m) => m.homeTeamId! < m.awayTeamId!);
    const standings = computeStandings('round_robin', teams(4), played);
    expect(standings.map((row) => [row.teamId, row.points])).toEqual([[1, 9], [2, 6], [3, 3], [4, 0]]);
  });
});

function playSwiss(count: number, rounds: number, random: () => number): BracketMatch[] {
  const first = generateBracket('swiss', teams(count), rounds);
  if (!first.ok) throw first.error;
  let matches = playOut(first.state, () => random() < 0.5);
  for (let round = 2; round <= rounds; round += 1) {
    const next = pairSwissRound(teams(count), matches, rounds);
    if (!next.ok) throw next.error;
    const settled = settleBracket([...matches, ...next.state]);
    if (!settled.ok) throw settled.error;
    matches = playOut(settled.matches, () => random() < 0.5);
  }
  return matches;
}

describe('swiss', () => {
  it('never pairs a rematch and gives each team at most one bye over 4 rounds of 10 and 11 teams', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.constantFrom(10, 11), (seed, count) => {
        const matches = playSwiss(count, 4, seededRandom(seed));
        const pairs = matches.filter((m) => m.status === 'confirmed').map(pairOf);
        expect(new Set(pairs).size).toBe(pairs.length);
        const byes = matches.filter((m) => m.status === 'bye').map((m) => m.homeTeamId);
        expect(new Set(byes).size).toBe(byes.length);
        expect(matches.filter((m) => m.round === 4)).toHaveLength(Math.ceil(count / 2));
      }),
      { numRuns: 100 },
    );
  });

  it('refuses to pair the next round while a match is unconfirmed', () => {
    const first = generateBracket('swiss', teams(6), 3);
    if (!first.ok) throw first.error;
    const next = pairSwissRound(teams(6), first.state, 3);
    expect(next.ok).toBe(false);
  });

  it('gives Buchholz as the sum of the opponents points', () => {
    const matches = playSwiss(4, 2, () => 0);
    const standings = computeStandings('swiss', teams(4), matches);
    const byTeam = new Map(standings.map((row) => [row.teamId, row]));
    for (const row of standings) {
      const opponents = matches
        .filter((m) => m.status === 'confirmed' && (m.homeTeamId === row.teamId || m.awayTeamId === row.teamId))
        .map((m) => (m.homeTeamId === row.teamId ? m.awayTeamId! : m.homeTeamId!));
      expect(row.buchholz).toBe(opponents.reduce((sum, id) => sum + byTeam.get(id)!.points, 0));
    }
  });
});
