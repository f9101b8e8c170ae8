import { conflict, invalid, type DomainError } from '../domain-error';
import { MAX_ENTRY_AMOUNT } from '../points/ledger-entry';

/** A cup's fee: points, or the premium currency in its minor unit (cents). */
export interface EntryFee {
  amount: number;
  currency: string;
}

export interface Prize {
  rank: number;
  percent: number;
}

/** What makes a tournament a cup; null terms: a plain tournament. */
export interface CupTerms {
  entryFee: EntryFee;
  prizes: Prize[];
  housePercent: number;
}

export const POINTS = 'points';

/** The kind a league uses unless it has PayPal's pre-approval for paid games of skill. */
export const isPointsFee = (fee: EntryFee): boolean => fee.currency === POINTS;

/** Without prizes the winner takes the whole pool. */
export const DEFAULT_PRIZES: readonly Prize[] = [{ rank: 1, percent: 100 }];

/**
 * The rules cup terms keep: a positive whole fee in points or the one money currency this
 * server sells in, prizes on distinct ranks summing to at most 100%, the house taking 0-50%.
 * `moneyCurrency` is the premium currency (configuration).
 */
export function checkCupTerms(terms: CupTerms, moneyCurrency: string): DomainError | null {
  const { entryFee, prizes, housePercent } = terms;
  if (entryFee.currency !== POINTS && entryFee.currency !== moneyCurrency) {
    return invalid(`entry_fee.currency must be "${POINTS}" or "${moneyCurrency}"`);
  }
  if (!Number.isInteger(entryFee.amount) || entryFee.amount < 1 || entryFee.amount > MAX_ENTRY_AMOUNT) {
    return invalid(`entry_fee.amount must be a whole number from 1 to ${MAX_ENTRY_AMOUNT}`);
  }
  if (!Number.isInteger(housePercent) || housePercent < 0 || housePercent > 50) return invalid('house_percent must be 0-50');
  const ranks = new Set(prizes.map((p) => p.rank));
  if (ranks.size !== prizes.length) return invalid('prizes must name each rank once');
  if (prizes.some((p) => !Number.isInteger(p.rank) || p.rank < 1)) return invalid('prizes: rank must be a positive whole number');
  if (prizes.some((p) => !Number.isInteger(p.percent) || p.percent < 1)) return invalid('prizes: percent must be a positive whole number');
  if (prizes.reduce((sum, p) => sum + p.percent, 0) > 100) return invalid('prizes must sum to at most 100 percent');
  return null;
}

/**
 * A money fee is taken and refunded through PayPal: a server without PayPal configured can only
 * run points cups (a conflict with the server's configuration, not a malformed body: 409).
 */
export function checkFeePayable(fee: EntryFee, paymentsConfigured: boolean): DomainError | null {
  if (isPointsFee(fee) || paymentsConfigured) return null;
  return conflict(`an entry fee in ${fee.currency} is paid through PayPal, which is not configured on this server: charge points instead`);
}
