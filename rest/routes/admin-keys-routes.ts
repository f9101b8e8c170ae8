import { Router } from 'express';
import { keysRoutes } from '../../schema/routes/keys-routes';
import type { UserRecord } from '../../src/db/user-record';
import type { KeyAdmin } from '../../src/admin/key-admin';
import type { ApiKeys } from '../../src/identity/api-keys';
import { userOf, type Caller } from '../../src/identity/caller';
import { HttpError } from '../http-error';
import { bindRoute, type Authenticate } from '../route-binder';

export interface AdminKeysRouterDeps {
  authenticate: Authenticate<Caller>;
  keys: ApiKeys;
  keyAdmin: KeyAdmin;
  users: { findById(id: number): Promise<UserRecord | null> };
}

/** Admin keys: how an operator gets the first one after logging in as a listed admin (docs/design/CONTRACT.md, Keys). */
export function adminKeysRouter(deps: AdminKeysRouterDeps): Router {
  const router = Router();
  const { authenticate, keys } = deps;

  bindRoute(router, keysRoutes.issueAdminKey, authenticate, async ({ caller, body }) => {
    const owner = body.user_id === undefined ? userOf(caller) : await deps.users.findById(body.user_id);
    if (!owner) throw new HttpError(404, 'user not found');
    // An admin key of a non-admin account would be refused on every use (rule 9): refuse to mint it.
    if (!owner.isAdmin) throw new HttpError(400, 'user_id: must be an admin account');
    return deps.keyAdmin.issueAdminKey({ userId: userOf(caller).id }, owner.id, body.label);
  });
  bindRoute(router, keysRoutes.listAllKeys, authenticate, () => keys.listAll());
  bindRoute(router, keysRoutes.revokeAnyKey, authenticate, ({ caller, params }) => deps.keyAdmin.revokeKey({ userId: userOf(caller).id }, params.id));
  return router;
}
