import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Team } from './team';
import { Tournament } from './tournament';
import { User } from './user';

/** One cup entry fee (migration 0015); the cup repository reads and writes it with SQL. */
export const CupEntryFee = defineEntity({
  name: 'CupEntryFee',
  tableName: 'cup_entry_fees',
  properties: {
    id: p.integer().primary(),
    tournament: () => p.manyToOne(Tournament).mapToPk().deleteRule('cascade'),
    team: () => p.manyToOne(Team).mapToPk(),
    payer: () => p.manyToOne(User).mapToPk(),
    currency: p.text(),
    amount: p.integer(),
    status: p.enum(['pending_payment', 'captured', 'paid', 'refunded'] as const),
    orderId: p.string().length(64).nullable().unique('cup_entry_fees_order_id_unique'),
    captureId: p.string().length(64).nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    paidAt: p.datetime().nullable(),
    refundedAt: p.datetime().nullable(),
    /** The unsettled-fee sweep's looks (migration 0017). */
    checks: p.integer().default(0),
    nextCheckAt: p.datetime().nullable(),
  },
  indexes: [
    {
      name: 'cup_entry_fees_unsettled_index',
      expression: `create index "cup_entry_fees_unsettled_index" on "cup_entry_fees" ("created_at") where "status" in ('pending_payment', 'captured')`,
    },
  ],
  uniques: [
    {
      name: 'cup_entry_fees_paid_unique',
      expression: `create unique index "cup_entry_fees_paid_unique" on "cup_entry_fees" ("tournament_id", "team_id") where "status" = 'paid'`,
    },
  ],
});
export type CupEntryFeeEntity = InferEntity<typeof CupEntryFee>;

/** A money refund at PayPal, one per fee, retried until PayPal refunds it. */
export const CupRefund = defineEntity({
  name: 'CupRefund',
  tableName: 'cup_refunds',
  properties: {
    id: p.integer().primary(),
    fee: () => p.oneToOne(CupEntryFee).mapToPk().owner().deleteRule('cascade').unique('cup_refunds_fee_id_unique'),
    tournament: () => p.manyToOne(Tournament).mapToPk().deleteRule('cascade'),
    captureId: p.string().length(64),
    amount: p.integer(),
    currency: p.text(),
    status: p.enum(['pending', 'failed', 'refunded'] as const).default('pending'),
    requestId: p.string().length(64),
    paypalRefundId: p.string().length(64).nullable(),
    paypalStatus: p.text().nullable(),
    attempts: p.integer().default(0),
    lastError: p.text().nullable(),
    nextAttemptAt: p.datetime().defaultRaw('now()'),
    claimedUntil: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    refundedAt: p.datetime().nullable(),
  },
  indexes: [{ name: 'cup_refunds_due_index', properties: ['status', 'nextAttemptAt'] }],
});
export type CupRefundEntity = InferEntity<typeof CupRefund>;

/** A prize by final rank: unique per (cup, rank), so computing payouts again pays nothing twice. */
export const CupPayout = defineEntity({
  name: 'CupPayout',
  tableName: 'cup_payouts',
  properties: {
    id: p.integer().primary(),
    tournament: () => p.manyToOne(Tournament).mapToPk().deleteRule('cascade'),
    rank: p.integer(),
    team: () => p.manyToOne(Team).mapToPk(),
    amount: p.integer(),
    currency: p.text(),
    status: p.enum(['pending', 'paid'] as const),
    reference: p.string().length(200).nullable(),
    paidBy: () => p.manyToOne(User).mapToPk().nullable().deleteRule('set null'),
    paidAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
  uniques: [{ name: 'cup_payouts_rank_unique', properties: ['tournament', 'rank'] }],
});
export type CupPayoutEntity = InferEntity<typeof CupPayout>;

/** A member of a team's roster when the cup completed (migration 0016): who its points prizes go to. */
export const CupFinalRoster = defineEntity({
  name: 'CupFinalRoster',
  tableName: 'cup_final_rosters',
  properties: {
    tournament: () => p.manyToOne(Tournament).mapToPk().primary().deleteRule('cascade'),
    team: () => p.manyToOne(Team).mapToPk().primary(),
    user: () => p.manyToOne(User).mapToPk().primary(),
    isLeader: p.boolean(),
  },
});
export type CupFinalRosterEntity = InferEntity<typeof CupFinalRoster>;
