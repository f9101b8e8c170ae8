import { Router } from 'express';
import { keysRoutes } from '../../schema/routes/keys-routes';
import type { ApiKeys } from '../../src/identity/api-keys';
import { userOf, type Caller } from '../../src/identity/caller';
import { HttpError } from '../http-error';
import { bindRoute, type Authenticate } from '../route-binder';

/** A member's own keys (spec, Premium API key; Authentication rules 3, 4, 7). */
export function keysRouter(deps: { authenticate: Authenticate<Caller>; keys: ApiKeys }): Router {
  const router = Router();
  const { authenticate, keys } = deps;
  bindRoute(router, keysRoutes.issuePremiumKey, authenticate, ({ caller, body }) => keys.issue(userOf(caller).id, 'premium', body.label));
  bindRoute(router, keysRoutes.listOwnKeys, authenticate, ({ caller }) => keys.listOwn(userOf(caller).id));
  bindRoute(router, keysRoutes.currentKey, authenticate, ({ caller }) => {
    // The contract accepts keys only, so the credential step admits no other caller; a 401 rather than a 500 if that ever changes.
    if (caller.kind !== 'key') throw new HttpError(401, 'an API key in the Authorization header is required');
    return keys.current(caller.keyId, caller.user);
  });
  bindRoute(router, keysRoutes.revokeOwnKey, authenticate, ({ caller, params }) => keys.revoke(params.id, userOf(caller).id));
  return router;
}
