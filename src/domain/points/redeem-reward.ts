import { conflict, fail, notFound, succeed, type Outcome } from '../domain-error';
import type { LedgerEntry } from './ledger-entry';

export interface RewardOffer {
  id: number;
  name: string;
  kind: string;
  cost: number;
  active: boolean;
}

/** A reward is owned once: its ledger key is the pair, so buying it twice can never be booked. */
export const redeemSourceKey = (userId: number, rewardId: number) => `redeem:user:${userId}:reward:${rewardId}`;

/**
 * The ledger entry a redemption books; 404 for a reward that is unknown or no longer offered, 409
 * for one already owned. Whether the balance covers it is the ledger's call, taken on the locked
 * balance row.
 */
export function redeemEntry(userId: number, reward: RewardOffer | null, alreadyOwned: boolean): Outcome<LedgerEntry, never> {
  if (!reward || !reward.active) return fail(notFound('reward not found'));
  if (alreadyOwned) return fail(conflict('reward already owned'));
  return succeed({
    userId,
    amount: -reward.cost,
    kind: 'redeem',
    reason: `redeemed ${reward.name}`,
    actorId: userId,
    sourceKey: redeemSourceKey(userId, reward.id),
  });
}
