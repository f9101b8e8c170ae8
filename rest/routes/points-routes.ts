import { Router } from 'express';
import { pointsRoutes } from '../../schema/routes/points-routes';
import type { PointsRepository } from '../../src/db/points-repository';
import { userOf, type Caller } from '../../src/identity/caller';
import {
  toPointBalance,
  toPointRedemption,
  toPointReward,
  toPointsLeaderRow,
  toPointTransaction,
} from '../../src/points/points-views';
import type { SerializedCache } from '../../src/public-reads/serialized-cache';
import { bindRoute, RESPONDED, type Authenticate } from '../route-binder';
import { preparedFromCache } from './public-routes';

export interface PointsRouterDeps {
  authenticate: Authenticate<Caller>;
  points: PointsRepository;
  /** The public-read cache: the catalogue and the leaderboard live under its `points` topic. */
  cache: SerializedCache;
  /** Drops the `points` topic in every instance after a balance changed. */
  invalidate(topic: 'points'): void;
}

export const POINTS_LEADERBOARD_SIZE = 100;

export function pointsRouter(deps: PointsRouterDeps): Router {
  const router = Router();
  const { authenticate, points, cache } = deps;

  bindRoute(router, pointsRoutes.balance, authenticate, async ({ caller }) => toPointBalance(await points.wallet(userOf(caller).id)));

  bindRoute(router, pointsRoutes.transactions, authenticate, async ({ caller, query }) =>
    (await points.transactions(userOf(caller).id, query.limit, query.page)).map(toPointTransaction),
  );

  bindRoute(router, pointsRoutes.rewards, authenticate, async () =>
    preparedFromCache(await cache.get('points:rewards', async () => ({ status: 200, body: (await points.rewards()).map(toPointReward) }))),
  );

  bindRoute(router, pointsRoutes.leaderboard, authenticate, async () =>
    preparedFromCache(
      await cache.get('points:leaderboard', async () => ({
        status: 200,
        body: (await points.leaderboard(POINTS_LEADERBOARD_SIZE)).map(toPointsLeaderRow),
      })),
    ),
  );

  bindRoute(router, pointsRoutes.redeem, authenticate, async ({ caller, body }) => {
    const { redemption, balance } = await points.redeem(userOf(caller).id, body.reward_id);
    deps.invalidate('points');
    return { ok: true, redemption: toPointRedemption(redemption), balance };
  });

  bindRoute(router, pointsRoutes.redemptions, authenticate, async ({ caller }) =>
    (await points.redemptions(userOf(caller).id)).map(toPointRedemption),
  );

  bindRoute(router, pointsRoutes.adminAward, authenticate, async ({ caller, body }) => {
    const award = await points.award({ adminId: userOf(caller).id, userId: body.user_id, amount: body.amount, reason: body.reason });
    deps.invalidate('points');
    return { ok: true, audit_id: award.auditId, transaction: toPointTransaction(award.entry), balance: award.after.balance };
  });

  return router;
}
