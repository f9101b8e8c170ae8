import { describe, expect, it } from 'vitest';
import { checkDeparture, checkJoin, checkTransfer, enteredAnywhere, rosterLocked, type CompetitionEntry } from '../../../src/domain/teams';

const entry = (teamId: number, competitionId: number, extra: Partial<CompetitionEntry> = {}): CompetitionEntry => ({
  teamId, competitionId, rosterLocked: true, minRoster: 6, maxRoster: 9, ...extra,
});

describe('a locked roster', () => {
  it('is one with any locked entry', () => {
    expect(rosterLocked(1, [entry(1, 5, { rosterLocked: false }), entry(1, 6)])).toBe(true);
    expect(rosterLocked(1, [entry(1, 5, { rosterLocked: false })])).toBe(false);
    expect(rosterLocked(1, [entry(2, 5)])).toBe(false);
    expect(rosterLocked(1, [])).toBe(false);
  });

  it('counts any entry of the team as being entered, locked or not', () => {
    expect(enteredAnywhere(1, [entry(1, 5, { rosterLocked: false })])).toBe(true);
    expect(enteredAnywhere(1, [entry(2, 5)])).toBe(false);
  });
});

describe('a join', () => {
  it.each([1, 5, 9])('to a roster of %i after it, within the cap of 9, passes', (size) => {
    expect(checkJoin(1, size, [entry(1, 5)])).toBeNull();
  });

  it.each([10, 12])('to a roster of %i after it, over the cap of 9, is a conflict', (size) => {
    expect(checkJoin(1, size, [entry(1, 5)])?.kind).toBe('conflict');
  });

  it('with no cap passes at any size', () => {
    expect(checkJoin(1, 40, [entry(1, 5, { maxRoster: null })])).toBeNull();
  });

  it('of a player on another team of the same tournament is a conflict, locked or not', () => {
    expect(checkJoin(1, 7, [entry(1, 5), entry(2, 5, { rosterLocked: false })])).toMatchObject({ message: 'the player is on another team entered in the same tournament' });
  });

  it('of a player on a team entered in another tournament passes', () => {
    expect(checkJoin(1, 7, [entry(1, 5), entry(2, 6)])).toBeNull();
  });

  it('to a team entered nowhere passes even when the player plays elsewhere', () => {
    expect(checkJoin(1, 7, [entry(2, 6)])).toBeNull();
  });
});

describe('a departure', () => {
  it.each([
    [5, true, 6, 'conflict'],
    [6, true, 6, null],
    [0, true, 1, 'conflict'],
    [2, false, 6, null],
  ] as const)('leaving %i players where locked=%s and the minimum is %i answers %s', (size, locked, min, expected) => {
    expect(checkDeparture(1, size, [entry(1, 5, { rosterLocked: locked, minRoster: min })])?.kind ?? null).toBe(expected);
  });

  it('checks every locked entry, not only the first', () => {
    expect(checkDeparture(1, 5, [entry(1, 5, { minRoster: 2 }), entry(1, 6, { minRoster: 6 })])?.kind).toBe('conflict');
  });
});

describe('a transfer', () => {
  it('is checked as a join or as a departure by its action', () => {
    const entries = [entry(1, 5, { minRoster: 6, maxRoster: 6 })];
    expect(checkTransfer('join', 1, 7, entries)?.kind).toBe('conflict');
    expect(checkTransfer('leave', 1, 7, entries)).toBeNull();
    expect(checkTransfer('kick', 1, 5, entries)?.kind).toBe('conflict');
    expect(checkTransfer('join', 1, 6, entries)).toBeNull();
  });
});
