import { Router } from 'express';
import { partyRoutes } from '../../schema/routes/party-routes';
import type { PartyEngine } from '../../src/engine/party-engine';
import type { Caller } from '../../src/identity/caller';
import { bindRoute, type Authenticate } from '../route-binder';

const OK = { ok: true };

export function partyRouter(parties: PartyEngine, authenticate: Authenticate<Caller>): Router {
  const router = Router();
  // Declares no credential yet answers for a session: the credential step resolves it (optionalSession).
  bindRoute(router, partyRoutes.me, authenticate, ({ caller }) => parties.me(caller));
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
