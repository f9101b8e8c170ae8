import { describe, expect, it } from 'vitest';
import { payoutLines, prizePool, splitAmongRoster } from '../../../src/domain/cups';

describe('the prize pool', () => {
  it('is paid entries times the fee less the house share, rounded down', () => {
    expect(prizePool({ amount: 100, currency: 'points' }, 4, 10)).toEqual({ amount: 360, currency: 'points' });
    expect(prizePool({ amount: 333, currency: 'EUR' }, 3, 7)).toEqual({ amount: 929, currency: 'EUR' });
    expect(prizePool({ amount: 100, currency: 'points' }, 0, 0).amount).toBe(0);
  });
});

describe('payout lines', () => {
  const ranked = [
    { teamId: 1, finalRank: 1, order: 1 },
    { teamId: 2, finalRank: 2, order: 2 },
    { teamId: 3, finalRank: 3, order: 3 },
    { teamId: 4, finalRank: 3, order: 4 },
  ];

  it('pay each rank its percent of the pool', () => {
    expect(payoutLines(1000, [{ rank: 1, percent: 60 }, { rank: 2, percent: 30 }], ranked)).toEqual([
      { rank: 1, teamId: 1, amount: 600 },
      { rank: 2, teamId: 2, amount: 300 },
    ]);
  });

  it('share the prizes of the places a tie takes, each tied team its own slot', () => {
    expect(payoutLines(1000, [{ rank: 1, percent: 50 }, { rank: 2, percent: 25 }, { rank: 3, percent: 15 }, { rank: 4, percent: 5 }], ranked)).toEqual([
      { rank: 1, teamId: 1, amount: 500 },
      { rank: 2, teamId: 2, amount: 250 },
      { rank: 3, teamId: 3, amount: 100 },
      { rank: 4, teamId: 4, amount: 100 },
    ]);
  });

  it('never pay out more than the pool', () => {
    const lines = payoutLines(999, [{ rank: 1, percent: 33 }, { rank: 2, percent: 33 }, { rank: 3, percent: 34 }], ranked);
    expect(lines.reduce((sum, l) => sum + l.amount, 0)).toBeLessThanOrEqual(999);
  });
});

describe('a points prize split over the roster', () => {
  it('gives equal parts and the remainder to the leader', () => {
    expect(splitAmongRoster(10, [5, 6, 7], 6)).toEqual([
      { userId: 5, amount: 3 },
      { userId: 6, amount: 4 },
      { userId: 7, amount: 3 },
    ]);
  });

  it('includes a leader missing from the roster list and leaves out empty parts', () => {
    expect(splitAmongRoster(1, [5, 7], 6)).toEqual([{ userId: 6, amount: 1 }]);
  });
});
