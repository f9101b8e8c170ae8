import { Router } from 'express';
import { usersRoutes } from '../../schema/routes/users-routes';
import { toUserPublic, type UserRecord } from '../../src/db/user-record';
import { userOf, type Caller } from '../../src/identity/caller';
import { applyProfileMakeover, buyCustomAvatar, type PointsShop } from '../../src/identity/profile-shop';
import { loadUserSelf, toUserCard } from '../../src/identity/user-views';
import { HttpError } from '../http-error';
import { bindRoute, type Authenticate } from '../route-binder';

export interface UsersRouterDeps {
  authenticate: Authenticate<Caller>;
  users: {
    findById(id: number): Promise<UserRecord | null>;
    findByPlatformId(platformId: string): Promise<UserRecord | null>;
    findManyByIds(ids: readonly number[]): Promise<UserRecord[]>;
    leaderboard(limit: number): Promise<UserRecord[]>;
  };
  presence: { onlineUserIds(): Promise<number[]> };
  premium: { premiumUntil(userId: number, now: Date): Promise<Date | null> };
  shop: PointsShop;
  clock: () => number;
}

const notFound = () => new HttpError(404, 'user not found');

/** The users routes with fixed paths (the platform id lookup is `userByPlatformIdRouter`). */
export function usersRouter(deps: UsersRouterDeps): Router {
  const router = Router();
  const { authenticate } = deps;

  bindRoute(router, usersRoutes.me, authenticate, ({ caller }) => loadUserSelf(userOf(caller), deps.premium, new Date(deps.clock())));

  bindRoute(router, usersRoutes.leaderboard, authenticate, async ({ query }) =>
    (await deps.users.leaderboard(query.limit)).map(toUserPublic),
  );

  bindRoute(router, usersRoutes.online, authenticate, async () =>
    (await deps.users.findManyByIds(await deps.presence.onlineUserIds())).map(toUserPublic),
  );

  bindRoute(router, usersRoutes.card, authenticate, async ({ params }) => {
    const user = await deps.users.findById(params.userId);
    if (!user) throw notFound();
    const online = (await deps.presence.onlineUserIds()).includes(user.id);
    return toUserCard(user, online);
  });

  bindRoute(router, usersRoutes.setCustomAvatar, authenticate, async ({ caller, body }) => {
    await buyCustomAvatar(deps.shop, userOf(caller).id, body.avatar_url);
    return { ok: true };
  });

  bindRoute(router, usersRoutes.setProfileMakeover, authenticate, async ({ caller, body }) => {
    await applyProfileMakeover(deps.shop, userOf(caller).id, {
      nameColorRewardId: body.name_color_reward_id,
      profileFrameRewardId: body.profile_frame_reward_id,
    });
    return { ok: true };
  });

  return router;
}

/**
 * `GET /api/users/:platformId` on its own router, mounted after every other router: its path
 * would otherwise shadow any fixed `/api/users/<name>` path registered later.
 */
export function userByPlatformIdRouter(deps: Pick<UsersRouterDeps, 'authenticate' | 'users'>): Router {
  const router = Router();
  bindRoute(router, usersRoutes.byPlatformId, deps.authenticate, async ({ params }) => {
    const user = await deps.users.findByPlatformId(params.platformId);
    if (!user) throw notFound();
    return toUserPublic(user);
  });
  return router;
}
