import * as v from 'valibot';
import { clampedQueryInt, IsoDateTime } from './common';

const Int = v.pipe(v.number(), v.integer());

export const PointBalance = v.object({
  balance: Int,
  lifetime_earned: Int,
  lifetime_spent: Int,
});
export type PointBalance = v.InferOutput<typeof PointBalance>;

export const PointKind = v.picklist(['match', 'redeem', 'custom_avatar', 'admin_award', 'cup_entry', 'cup_refund', 'cup_prize']);

/** One ledger row: `amount` is signed, `balance_after` is the balance this row left. */
export const PointTransaction = v.object({
  id: Int,
  amount: Int,
  kind: PointKind,
  reason: v.string(),
  balance_after: Int,
  created_at: IsoDateTime,
});
export type PointTransaction = v.InferOutput<typeof PointTransaction>;

export const PointReward = v.object({
  id: Int,
  name: v.string(),
  kind: v.picklist(['name_color', 'profile_frame']),
  cost: Int,
  /** What applying it sets: a CSS colour for name_color, a frame name for profile_frame. */
  value: v.string(),
  active: v.boolean(),
});
export type PointReward = v.InferOutput<typeof PointReward>;

export const PointRedemption = v.object({
  id: Int,
  reward_id: Int,
  reward_name: v.string(),
  cost: Int,
  redeemed_at: IsoDateTime,
  kind: v.string(),
  value: v.string(),
});
export type PointRedemption = v.InferOutput<typeof PointRedemption>;

export const PointsLeaderRow = v.object({ rank: Int, user_id: Int, username: v.string(), balance: Int });
export type PointsLeaderRow = v.InferOutput<typeof PointsLeaderRow>;

/** limit: default 50, clamped to 1..100; page: 1-indexed, default 1, clamped to 1..100000. */
export const PointTransactionsQuery = v.object({
  limit: clampedQueryInt(50, 1, 100),
  page: clampedQueryInt(1, 1, 100_000),
});

const Id = v.pipe(v.number(), v.integer(), v.minValue(1));

export const RedeemRewardBody = v.object({ reward_id: Id });

export const RedeemRewardResponse = v.object({ ok: v.boolean(), redemption: PointRedemption, balance: Int });

export const PointsAdminAwardBody = v.object({
  user_id: Id,
  /** Positive awards, negative corrects; never zero, at most a million either way. */
  amount: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(-1_000_000),
    v.maxValue(1_000_000),
    v.check((n) => n !== 0, 'amount must not be zero'),
  ),
  reason: v.pipe(v.string(), v.trim(), v.minLength(1, 'reason must not be empty'), v.maxLength(200)),
});

export const PointsAdminAwardResponse = v.object({
  ok: v.boolean(),
  /** The admin_audit row written with the award. */
  audit_id: Int,
  transaction: PointTransaction,
  balance: Int,
});
