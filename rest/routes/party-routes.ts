import { Router } from 'express';
import { partyRoutes } from '../../schema/routes/party-routes';
import type { PartyEngine } from '../../src/engine/party-engine';
import type { UserRecord } from '../../src/db/user-record';
import { ANONYMOUS, type Caller } from '../../src/identity/caller';
import { bindRoute, type Authenticate } from '../route-binder';

const OK = { ok: true };

/** The session a cookie header names, if any: GET /api/parties/me declares no credential yet answers for one. */
export type OptionalSession = (cookieHeader: string | undefined) => Promise<{ session: { id: string }; user: UserRecord } | null | undefined>;

export function partyRouter(parties: PartyEngine, authenticate: Authenticate<Caller>, optionalSession: OptionalSession): Router {
  const router = Router();
  bindRoute(router, partyRoutes.me, authenticate, async ({ req }) => {
    const found = await optionalSession(req.headers.cookie);
    return parties.me(found ? { kind: 'session', user: found.user, sessionId: found.session.id } : ANONYMOUS);
  });
  bindRoute(router, partyRoutes.create, authenticate, ({ body, caller }) => parties.create(caller, body.name));
  bindRoute(router, partyRoutes.invite, authenticate, async ({ body, caller }) => {
    await parties.invite(caller, body.to_platform_id);
    return OK;
  });
  bindRoute(router, partyRoutes.accept, authenticate, async ({ params, caller }) => {
    await parties.accept(caller, params.inviteId);
    return OK;
  });
  bindRoute(router, partyRoutes.decline, authenticate, async ({ params, caller }) => {
    await parties.decline(caller, params.inviteId);
    return OK;
  });
  bindRoute(router, partyRoutes.leave, authenticate, async ({ caller }) => {
    await parties.leave(caller);
    return OK;
  });
  bindRoute(router, partyRoutes.kick, authenticate, async ({ body, caller }) => {
    await parties.kick(caller, body.user_id);
    return OK;
  });
  bindRoute(router, partyRoutes.disband, authenticate, async ({ caller }) => {
    await parties.disband(caller);
    return OK;
  });
  return router;
}
