import { Router } from 'express';
import { LOBBY_COMMAND_NAMES, lobbyCommandContracts, lobbyRoutes, type LobbyCommandName } from '../../schema/routes/lobby-routes';
import type { RouteContract } from '../../schema/route-contract';
import { runLobbyCommand, type LobbyCommandGate } from '../../src/engine/lobby-command-table';
import type { LobbyEngine } from '../../src/engine/lobby-engine';
import type { Caller } from '../../src/identity/caller';
import { HttpError } from '../http-error';
import { bindNativeRoute, type NativeRouteDeps } from '../native-route-binder';
import { bindRoute, type Authenticate } from '../route-binder';
import type { UwsApp } from '../../host/uws-host';

/** The Lobbies tag: reads and create here; every command (cancel included) bound from its one contract. */
export function lobbyRouter(engine: LobbyEngine, authenticate: Authenticate<Caller>, gate?: LobbyCommandGate): Router {
  const router = Router();
  bindRoute(router, lobbyRoutes.create, authenticate, async ({ body, caller }) => {
    await gate?.('create', caller);
    return engine.create(caller, body);
  });
  bindRoute(router, lobbyRoutes.detail, authenticate, async ({ params }) => {
    const lobby = await engine.detail(params.code);
    if (lobby === null) throw new HttpError(404, 'lobby not found');
    return lobby;
  });
  bindRoute(router, lobbyRoutes.votes, authenticate, async ({ params }) => ({ votes: await engine.votes(params.code) }));
  bindRoute(router, lobbyRoutes.myVote, authenticate, async ({ params, caller }) => ({ map: await engine.myVote(params.code, caller) }));
  bindRoute(router, lobbyRoutes.chatHistory, authenticate, async ({ params }) => ({ messages: await engine.chatHistory(params.code) }));
  for (const name of LOBBY_COMMAND_NAMES) {
    // The binder has parsed the path and the body with this very contract: the body is parsed once.
    bindRoute(router, lobbyCommandContracts[name] as RouteContract, authenticate, commandHandler(engine, name, gate));
  }
  return router;
}

/**
 * The lobby commands again on native uWS routes, which take every request spelled as the
 * contract spells it (the express bindings above serve the rest): the same contract, credential
 * check and handler, without the express pipeline. They are the hot path of the league.
 */
export function installLobbyCommandRoutes(app: UwsApp, engine: LobbyEngine, deps: NativeRouteDeps<Caller>, gate?: LobbyCommandGate): void {
  for (const name of LOBBY_COMMAND_NAMES) bindNativeRoute(app, lobbyCommandContracts[name] as RouteContract, deps, commandHandler(engine, name, gate));
}

function commandHandler(engine: LobbyEngine, name: LobbyCommandName, gate?: LobbyCommandGate) {
  return ({ params, body, caller }: { params: unknown; body: unknown; caller: Caller }) =>
    runLobbyCommand(engine, (params as { code: string }).code, name, body as never, caller, gate);
}
