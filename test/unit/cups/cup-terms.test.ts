import { describe, expect, it } from 'vitest';
import { checkCupTerms, checkFeePayable, type CupTerms } from '../../../src/domain/cups';

const terms = (overrides: Partial<CupTerms> = {}): CupTerms => ({
  entryFee: { amount: 100, currency: 'points' }, prizes: [{ rank: 1, percent: 60 }, { rank: 2, percent: 40 }], housePercent: 0, ...overrides,
});

describe('cup terms', () => {
  it('accept points and the premium currency', () => {
    expect(checkCupTerms(terms(), 'EUR')).toBeNull();
    expect(checkCupTerms(terms({ entryFee: { amount: 499, currency: 'EUR' } }), 'EUR')).toBeNull();
  });

  it('refuse any other currency', () => {
    expect(checkCupTerms(terms({ entryFee: { amount: 499, currency: 'USD' } }), 'EUR')?.kind).toBe('invalid');
  });

  it('refuse prizes over 100 percent or naming a rank twice', () => {
    expect(checkCupTerms(terms({ prizes: [{ rank: 1, percent: 70 }, { rank: 2, percent: 31 }] }), 'EUR')?.message).toContain('at most 100');
    expect(checkCupTerms(terms({ prizes: [{ rank: 1, percent: 10 }, { rank: 1, percent: 10 }] }), 'EUR')?.message).toContain('once');
  });

  it('keep the house share within 0-50', () => {
    expect(checkCupTerms(terms({ housePercent: 50 }), 'EUR')).toBeNull();
    expect(checkCupTerms(terms({ housePercent: 51 }), 'EUR')?.kind).toBe('invalid');
  });

  it('refuse a fee that is not a positive whole number', () => {
    expect(checkCupTerms(terms({ entryFee: { amount: 0, currency: 'points' } }), 'EUR')?.kind).toBe('invalid');
    expect(checkCupTerms(terms({ entryFee: { amount: 1.5, currency: 'points' } }), 'EUR')?.kind).toBe('invalid');
  });

  it('refuse a money fee as a conflict when payments are not configured', () => {
    expect(checkFeePayable({ amount: 500, currency: 'EUR' }, false)?.kind).toBe('conflict');
  });

  it('accept a points fee when payments are not configured', () => {
    expect(checkFeePayable({ amount: 500, currency: 'points' }, false)).toBeNull();
    expect(checkFeePayable({ amount: 500, currency: 'EUR' }, true)).toBeNull();
  });
});
