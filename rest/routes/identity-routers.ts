import type { Router } from 'express';
import type { Config } from '../../src/config/config';
import type { UsersRepository } from '../../src/db/users-repository';
import type { Identity } from '../../src/composition/identity';
import type { Presence } from '../../src/identity/presence';
import type { PointsShop } from '../../src/identity/profile-shop';
import { adminKeysRouter } from './admin-keys-routes';
import { authRouter } from './auth-routes';
import { keysRouter } from './keys-routes';
import { userByPlatformIdRouter, usersRouter } from './users-routes';

export interface IdentityRoutersInput {
  identity: Identity;
  config: Config;
  users: UsersRepository;
  presence: Presence;
  clock: () => number;
  /** The points system behind set-custom-avatar and set-profile-makeover. */
  shop: PointsShop;
}

/**
 * Login, users, own keys and admin keys, in mount order. `last` holds `/api/users/:platformId`
 * and must be mounted after every other router.
 */
export function identityRouters(input: IdentityRoutersInput): { routers: Router[]; last: Router } {
  const { identity, users, clock } = input;
  const authenticate = identity.authenticate;
  const routers = [
    authRouter({
      authenticate,
      authenticator: identity.authenticator,
      login: identity.login,
      chat: identity.chat,
      sessions: identity.sessions,
      users,
      premium: identity.premium,
      publicUrl: input.config.publicUrl,
      clock,
    }),
    keysRouter({ authenticate, keys: identity.apiKeys }),
    adminKeysRouter({ authenticate, keys: identity.apiKeys, keyAdmin: identity.keyAdmin, users }),
    usersRouter({ authenticate, users, presence: input.presence, premium: identity.premium, shop: input.shop, clock }),
  ];
  return { routers, last: userByPlatformIdRouter({ authenticate, users }) };
}
