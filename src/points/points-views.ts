import type { PointBalance, PointRedemption, PointReward, PointsLeaderRow, PointTransaction } from '../../schema/points';
import type { BookedEntry } from '../db/point-ledger';
import type { PointsLeaderRecord, RedemptionRecord, RewardRecord } from '../db/points-repository';
import type { Wallet } from '../domain/points/ledger-entry';

/** The points records as the wire shows them (schema/points.ts). */
export const toPointBalance = (w: Wallet): PointBalance => ({
  balance: w.balance,
  lifetime_earned: w.lifetimeEarned,
  lifetime_spent: w.lifetimeSpent,
});

export const toPointTransaction = (e: BookedEntry): PointTransaction => ({
  id: e.id,
  amount: e.amount,
  kind: e.kind as PointTransaction['kind'],
  reason: e.reason,
  balance_after: e.balanceAfter,
  created_at: e.createdAt.toISOString(),
});

export const toPointReward = (r: RewardRecord): PointReward => ({
  id: r.id,
  name: r.name,
  kind: r.kind as PointReward['kind'],
  cost: r.cost,
  value: r.value,
  active: r.active,
});

export const toPointRedemption = (r: RedemptionRecord): PointRedemption => ({
  id: r.id,
  reward_id: r.rewardId,
  reward_name: r.rewardName,
  cost: r.cost,
  redeemed_at: r.redeemedAt.toISOString(),
  kind: r.kind,
  value: r.value,
});

export const toPointsLeaderRow = (r: PointsLeaderRecord): PointsLeaderRow => ({
  rank: r.rank,
  user_id: r.userId,
  username: r.username,
  balance: r.balance,
});
