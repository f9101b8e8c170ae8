import * as v from 'valibot';
import {
  PointBalance,
  PointRedemption,
  PointReward,
  PointsAdminAwardBody,
  PointsAdminAwardResponse,
  PointsLeaderRow,
  PointTransaction,
  PointTransactionsQuery,
  RedeemRewardBody,
  RedeemRewardResponse,
} from '../points';
import { defineRoute } from '../route-contract';

const tag = 'Points';

export const pointsRoutes = {
  balance: defineRoute({
    operationId: 'getPointBalance', method: 'get', path: '/api/points/balance', tag, auth: ['session'],
    description:
      'The logged-in caller\'s point balance (always the sum of their ledger) with lifetime earned and spent. 401 without a session.',
    summary: "The caller's balance (always the sum of their ledger) and lifetime totals",
    success: { status: 200, schema: PointBalance }, errors: [401, 403],
  }),
  transactions: defineRoute({
    operationId: 'listPointTransactions', method: 'get', path: '/api/points/transactions', tag, auth: ['session'],
    description:
      'The caller\'s ledger entries, newest first, paged by page (1-based) and limit (default 50; out-of-range values are clamped to 1..100). 401 without a session; 400 when page or limit is not an integer.',
    summary: "The caller's ledger, newest first (limit default 50, clamped to 1..100; page 1-indexed, default 1)",
    query: PointTransactionsQuery, success: { status: 200, schema: v.array(PointTransaction) }, errors: [400, 401, 403],
  }),
  rewards: defineRoute({
    operationId: 'listPointRewards', method: 'get', path: '/api/points/rewards', tag, auth: [],
    description:
      'The reward catalogue with costs; inactive rewards are listed but cannot be redeemed. Anyone may call it; cached publicly for 30 seconds.',
    summary: 'The reward catalogue; inactive rewards are listed but cannot be redeemed',
    success: { status: 200, schema: v.array(PointReward) }, errors: [], publicCache: true,
  }),
  redeem: defineRoute({
    operationId: 'redeemPointReward', method: 'post', path: '/api/points/redeem', tag, auth: ['session'],
    description:
      'Buys a reward with the caller\'s points and returns the redemption and the new balance. 402 when the balance is too low, 404 for an unknown or inactive reward, 409 when the caller already owns it.',
    bodyExample: { reward_id: 3 },
    summary: 'Buys a reward with points (402 not enough, 404 unknown or inactive, 409 already owned)',
    body: RedeemRewardBody, success: { status: 200, schema: RedeemRewardResponse }, errors: [400, 401, 402, 403, 404, 409],
  }),
  redemptions: defineRoute({
    operationId: 'listPointRedemptions', method: 'get', path: '/api/points/redemptions', tag, auth: ['session'],
    description:
      'The rewards the caller owns, newest first. 401 without a session.',
    summary: 'The rewards the caller owns, newest first', success: { status: 200, schema: v.array(PointRedemption) }, errors: [401, 403],
  }),
  leaderboard: defineRoute({
    operationId: 'getPointsLeaderboard', method: 'get', path: '/api/points/leaderboard', tag, auth: [],
    description:
      'The 100 highest point balances, highest first. Anyone may call it; cached publicly for 30 seconds.',
    summary: 'Top 100 balances, highest first', success: { status: 200, schema: v.array(PointsLeaderRow) }, errors: [], publicCache: true,
  }),
  adminAward: defineRoute({
    operationId: 'awardPoints', method: 'post', path: '/api/points/admin/award', tag, auth: ['admin'], role: 'admin',
    description:
      'Gives a user points (positive amount) or takes them back (negative), with a reason, using an admin key; the ledger entry and an admin audit row with the balance before and after are written together. 404 for an unknown user, 409 when a correction is larger than the balance, 400 for a zero amount or an empty reason.',
    bodyExample: { user_id: 1234, amount: 250, reason: 'Helped run the winter cup' },
    summary: 'Awards (or, negative, takes back) points with an admin key; writes an admin_audit row with the balance before and after',
    body: PointsAdminAwardBody, success: { status: 200, schema: PointsAdminAwardResponse }, errors: [400, 401, 403, 404, 409],
  }),
};
