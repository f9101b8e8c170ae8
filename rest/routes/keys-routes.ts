import { Router } from 'express';
import { keysRoutes } from '../../schema/routes/keys-routes';
import type { ApiKeys } from '../../src/identity/api-keys';
import { userOf, type Caller } from '../../src/identity/caller';
import { bindRoute, type Authenticate } from '../route-binder';

/** A member's own keys (spec, Premium API key; Authentication rules 3, 4, 7). */
export function keysRouter(deps: { authenticate: Authenticate<Caller>; keys: ApiKeys }): Router {
  const router = Router();
  const { authenticate, keys } = deps;
  bindRoute(router, keysRoutes.issuePremiumKey, authenticate, ({ caller, body }) => keys.issue(userOf(caller).id, 'premium', body.label));
  bindRoute(router, keysRoutes.listOwnKeys, authenticate, ({ caller }) => keys.listOwn(userOf(caller).id));
  bindRoute(router, keysRoutes.currentKey, authenticate, ({ caller }) => {
    if (caller.kind !== 'key') throw new Error('the current-key route accepts keys only');
    return keys.current(caller.keyId, caller.user);
  });
  bindRoute(router, keysRoutes.revokeOwnKey, authenticate, ({ caller, params }) => keys.revoke(params.id, userOf(caller).id));
  return router;
}
