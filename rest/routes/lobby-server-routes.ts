import { Router } from 'express';
import { lobbyServerRoutes as r } from '../../schema/routes/lobby-server-routes';
import { serverPluginRoutes as plugin } from '../../schema/routes/server-plugin-routes';
import { userOf, type Caller } from '../../src/identity/caller';
import type { LobbyServerService } from '../../src/servers/lobby-server-service';
import type { PluginService } from '../../src/servers/plugin-service';
import { bindRoute, type Authenticate } from '../route-binder';

/** The lobby routes that reach the lobby's game server, and the in-game plugin's routes. */
export function lobbyServerRouter(lobbyServer: LobbyServerService, plugins: PluginService, authenticate: Authenticate<Caller>): Router {
  const router = Router();
  bindRoute(router, r.rconExec, authenticate, ({ caller, params, body }) => lobbyServer.rconExec(userOf(caller), params.code, body.command));
  bindRoute(router, r.logStatus, authenticate, ({ params }) => lobbyServer.logStatus(params.code));
  bindRoute(router, r.fetchLog, authenticate, ({ caller, params }) => lobbyServer.fetchLog(userOf(caller), params.code));
  bindRoute(router, r.submitLog, authenticate, ({ caller, params, body }) => lobbyServer.submitLog(userOf(caller), params.code, body.log_url));
  bindRoute(router, r.checkServer, authenticate, ({ params }) => lobbyServer.checkServer(params.code));
  bindRoute(router, plugin.extend, authenticate, ({ body }) => plugins.extend(body.reservation_id, body.minutes));
  bindRoute(router, plugin.who, authenticate, ({ body }) => plugins.who(body.reservation_id));
  bindRoute(router, plugin.reportMatch, authenticate, ({ body }) => plugins.reportMatch(body.reservation_id, body.log_url, body.demo_url ?? null));
  return router;
}
