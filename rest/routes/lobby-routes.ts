import { Router } from 'express';
import { lobbyCommandRoutes, lobbyRoutes } from '../../schema/routes/lobby-routes';
import { LOBBY_COMMAND_NAMES, runLobbyCommand, type LobbyCommandGate } from '../../src/engine/lobby-command-table';
import type { LobbyEngine } from '../../src/engine/lobby-engine';
import type { Caller } from '../../src/identity/caller';
import { HttpError } from '../http-error';
import { bindRoute, type Authenticate } from '../route-binder';

/** The Lobbies tag: reads, create and cancel here; every command through the engine's one command table. */
export function lobbyRouter(engine: LobbyEngine, authenticate: Authenticate<Caller>, gate?: LobbyCommandGate): Router {
  const router = Router();
  bindRoute(router, lobbyRoutes.create, authenticate, ({ body, caller }) => engine.create(caller, body));
  bindRoute(router, lobbyRoutes.detail, authenticate, async ({ params }) => {
    const lobby = await engine.detail(params.code);
    if (lobby === null) throw new HttpError(404, 'lobby not found');
    return lobby;
  });
  bindRoute(router, lobbyRoutes.cancel, authenticate, async ({ params, caller }) => {
    await engine.command(params.code, { type: 'cancel' }, caller);
  });
  bindRoute(router, lobbyRoutes.votes, authenticate, async ({ params }) => ({ votes: await engine.votes(params.code) }));
  bindRoute(router, lobbyRoutes.myVote, authenticate, async ({ params, caller }) => ({ map: await engine.myVote(params.code, caller) }));
  bindRoute(router, lobbyRoutes.chatHistory, authenticate, async ({ params }) => ({ messages: await engine.chatHistory(params.code) }));
  for (const name of LOBBY_COMMAND_NAMES) {
    bindRoute(router, lobbyCommandRoutes[name], authenticate, async ({ params, body, caller }) => {
      return (await runLobbyCommand(engine, (params as { code: string }).code, name, body, caller, gate)).body;
    });
  }
  return router;
}
