import { DomainError, fail, invalid, succeed, type Outcome } from '../domain-error';

/** What moved a balance; the ledger's `kind` column. */
export type PointKind = 'match' | 'redeem' | 'custom_avatar' | 'admin_award' | 'cup_entry' | 'cup_refund' | 'cup_prize';

/** One change to book: the ledger row before it has an id, a time and a balance_after. */
export interface LedgerEntry {
  userId: number;
  /** Signed: earnings and awards add, spends take away. Never zero. */
  amount: number;
  kind: PointKind;
  reason: string;
  /** Who caused it: the spender, the awarding admin; null for the system (a match report). */
  actorId: number | null;
  /** Names the cause, so the same cause is booked at most once (unique in the ledger). */
  sourceKey: string;
}

export interface Wallet {
  balance: number;
  lifetimeEarned: number;
  lifetimeSpent: number;
}

export const EMPTY_WALLET: Wallet = { balance: 0, lifetimeEarned: 0, lifetimeSpent: 0 };

/** Larger than any real price or award; keeps every sum well inside a 32-bit column. */
export const MAX_ENTRY_AMOUNT = 1_000_000;

export const notEnoughPoints = () => new DomainError('payment_required', 'not enough points');

/**
 * The ledger's one rule as a function: a wallet after an entry. The database applies the same rule
 * in one conditional statement (and its CHECKs refuse anything else); this is its model, used by
 * the rules that decide before anything is written and by the property test.
 */
export function applyEntry(wallet: Wallet, amount: number): Outcome<Wallet, never> {
  if (!Number.isInteger(amount) || amount === 0 || Math.abs(amount) > MAX_ENTRY_AMOUNT) {
    return fail(invalid(`amount must be a non-zero integer of at most ${MAX_ENTRY_AMOUNT} either way`));
  }
  if (wallet.balance + amount < 0) return fail(notEnoughPoints());
  return succeed({
    balance: wallet.balance + amount,
    lifetimeEarned: wallet.lifetimeEarned + Math.max(amount, 0),
    lifetimeSpent: wallet.lifetimeSpent + Math.max(-amount, 0),
  });
}
