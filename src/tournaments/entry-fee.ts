import type { CupTerms } from '../domain/cups';
import { invalid, type DomainError } from '../domain/domain-error';
import type { EntityManager } from '../db/orm';
import type { TournamentRecord } from '../db/tournament-repository';

/**
 * The cups seam: called inside the entry, withdrawal and cancellation transactions, under the
 * tournament's row lock, so a fee is taken or refunded together with the entry it pays for (or
 * the whole change is refused: a thrown DomainError, e.g. payment_required, rolls it back).
 * Plain tournaments have no fee.
 */
export interface EntryFeePort {
  /** Whether a tournament may be created with these terms (null: a plain tournament). */
  checkTerms(terms: CupTerms | null): DomainError | null;
  /** `payment`: the paid PayPal order the entry is for (money cups); absent for points and plain tournaments. */
  chargeIn(em: EntityManager, tournament: TournamentRecord, teamId: number, userId: number, payment?: string): Promise<void>;
  refundIn(em: EntityManager, tournament: TournamentRecord, teamId: number): Promise<void>;
  /** The tournament completed in this transaction (final ranks written): a cup keeps its final rosters for the payouts. */
  completedIn(em: EntityManager, tournament: TournamentRecord): Promise<void>;
}

export const NO_ENTRY_FEE: EntryFeePort = {
  checkTerms: (terms) => (terms === null ? null : invalid('entry fees are not enabled on this server')),
  async chargeIn() {},
  async refundIn() {},
  async completedIn() {},
};
