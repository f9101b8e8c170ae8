/** The premium plans the specification names, and how long each one lasts. */
export const PREMIUM_PLANS = ['3m', '6m', '12m'] as const;
export type PremiumPlan = (typeof PREMIUM_PLANS)[number];

const MONTHS: Record<PremiumPlan, number> = { '3m': 3, '6m': 6, '12m': 12 };

export const MAX_GIFT_QUANTITY = 20;

/**
 * Where a plan bought at `start` ends: the same day of the month `MONTHS` later (clamped to the
 * month's last day, so a plan started on 31 August ends on 30 November, not 1 December).
 */
export function planEnd(plan: PremiumPlan, start: Date): Date {
  const end = new Date(start.getTime());
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + MONTHS[plan]);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}

/** A price in the currency's minor units (cents), so sums never meet floating point. */
export type PlanPrices = Record<PremiumPlan, number>;

/** What an order costs: one plan, or `quantity` gift codes of it. */
export function orderAmountMinor(prices: PlanPrices, plan: PremiumPlan, quantity: number): number {
  return prices[plan] * quantity;
}

/** Minor units as the provider's decimal string ("17.99"); two-decimal currencies only. */
export function formatMinor(minor: number): string {
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}
