import type { EntityManager } from '../db/orm';
import type { TournamentRecord } from '../db/tournament-repository';

/**
 * The cups seam: called inside the entry, withdrawal and cancellation transactions, under the
 * tournament's row lock, so a fee is taken or refunded together with the entry it pays for (or
 * the whole change is refused: a thrown DomainError, e.g. payment_required, rolls it back).
 * Plain tournaments have no fee.
 */
export interface EntryFeePort {
  chargeIn(em: EntityManager, tournament: TournamentRecord, teamId: number, userId: number): Promise<void>;
  refundIn(em: EntityManager, tournament: TournamentRecord, teamId: number): Promise<void>;
}

export const NO_ENTRY_FEE: EntryFeePort = {
  async chargeIn() {},
  async refundIn() {},
};
