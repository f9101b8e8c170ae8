import { describe, expect, it } from 'vitest';
import { actualScore, expectedScore, kFactor, rateMatch, type RatedPlayer } from '../../../src/domain/rating/elo';

const player = (userId: number, team: 'red' | 'blu', elo: number, matchesPlayed = 20): RatedPlayer => ({
  userId,
  team,
  elo,
  matchesPlayed,
});

describe('elo', () => {
  it('gives even teams an expected score of one half', () => {
    expect(expectedScore(1500, 1500)).toBe(0.5);
  });

  it('gives a team 200 points weaker an expected score of about 0.24', () => {
    expect(expectedScore(1000, 1200)).toBeCloseTo(0.2403, 4);
  });

  it.each([
    { matchesPlayed: 0, k: 32 },
    { matchesPlayed: 9, k: 32 },
    { matchesPlayed: 10, k: 16 },
    { matchesPlayed: 250, k: 16 },
  ])('uses K=$k after $matchesPlayed matches', ({ matchesPlayed, k }) => {
    expect(kFactor(matchesPlayed)).toBe(k);
  });

  it.each([
    { team: 'red' as const, red: 5, blu: 3, score: 1 },
    { team: 'blu' as const, red: 5, blu: 3, score: 0 },
    { team: 'red' as const, red: 0, blu: 2, score: 0 },
    { team: 'blu' as const, red: 0, blu: 2, score: 1 },
    { team: 'red' as const, red: 2, blu: 2, score: 0.5 },
  ])('scores $team as $score when red $red and blu $blu', ({ team, red, blu, score }) => {
    expect(actualScore(team, red, blu)).toBe(score);
  });

  it('rates teams by their average: an upset win pays 12 to established players and 24 to new ones', () => {
    const players = [
      player(1, 'red', 900),
      player(2, 'red', 1100, 3),
      player(3, 'blu', 1200),
      player(4, 'blu', 1200, 0),
    ];
    expect(rateMatch(players, 3, 1)).toEqual([
      { userId: 1, before: 900, after: 912 },
      { userId: 2, before: 1100, after: 1124 },
      { userId: 3, before: 1200, after: 1188 },
      { userId: 4, before: 1200, after: 1176 },
    ]);
  });

  it('moves the weaker team up and the stronger team down on a draw', () => {
    const players = [player(1, 'red', 1000), player(2, 'blu', 1200)];
    expect(rateMatch(players, 2, 2)).toEqual([
      { userId: 1, before: 1000, after: 1004 },
      { userId: 2, before: 1200, after: 1196 },
    ]);
  });

  it('pays the winners exactly what the losers lose between even established teams', () => {
    const players = [player(1, 'red', 1000), player(2, 'red', 1000), player(3, 'blu', 1000), player(4, 'blu', 1000)];
    const changes = rateMatch(players, 1, 0).map((c) => c.after - c.before);
    expect(changes).toEqual([8, 8, -8, -8]);
  });
});
