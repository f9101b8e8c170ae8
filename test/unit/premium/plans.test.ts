import { describe, expect, it } from 'vitest';
import { formatMinor, orderAmountMinor, planEnd } from '../../../src/domain/premium/plans';

describe('plan lengths', () => {
  it.each([
    ['3m', '2026-01-15T10:00:00.000Z', '2026-04-15T10:00:00.000Z'],
    ['6m', '2026-03-01T00:00:00.000Z', '2026-09-01T00:00:00.000Z'],
    ['12m', '2026-02-28T12:30:00.000Z', '2027-02-28T12:30:00.000Z'],
    ['3m', '2026-08-31T08:00:00.000Z', '2026-11-30T08:00:00.000Z'],
    ['12m', '2028-02-29T00:00:00.000Z', '2029-02-28T00:00:00.000Z'],
    ['6m', '2026-11-30T23:59:59.000Z', '2027-05-30T23:59:59.000Z'],
  ] as const)('a %s plan from %s ends at %s', (plan, start, end) => {
    expect(planEnd(plan, new Date(start)).toISOString()).toBe(end);
  });
});

describe('order amounts', () => {
  const prices = { '3m': 499, '6m': 899, '12m': 1499 };

  it('charges a plan its price and gift codes the price times the quantity', () => {
    expect(formatMinor(orderAmountMinor(prices, '6m', 1))).toBe('8.99');
    expect(formatMinor(orderAmountMinor(prices, '3m', 3))).toBe('14.97');
    expect(formatMinor(orderAmountMinor(prices, '12m', 20))).toBe('299.80');
  });

  it('writes minor units as PayPal decimals', () => {
    expect(formatMinor(5)).toBe('0.05');
    expect(formatMinor(1000)).toBe('10.00');
  });
});
