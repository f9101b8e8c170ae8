import type { Config } from '../config/config';
import type { LobbyEngine } from '../engine/lobby-engine';
import { runLobbyCommand, type LobbyCommandGate } from '../engine/lobby-command-table';
import type { Caller } from '../identity/caller';
import type { Presence } from '../identity/presence';
import { UserActionLimit, userActionLimits } from '../identity/user-action-limit';
import type { LiveStore } from '../live/live-store';
import type { SocketServer } from '../../realtime/socket-server';
import { refuseWithHttpError } from '../../rest/middleware/credentials';
import { toHttpError } from '../door/error-answer';
import type { DoorAssembly } from './door';
import type { Identity } from './identity';

export interface LobbyCommands {
  /** The engine as every door calls it: counted in the metrics. */
  lobbies: LobbyEngine;
  /** The per-user limits every door passes before a command runs. */
  gate: LobbyCommandGate;
}

/**
 * Lobby commands at every door: the per-user limits, the metrics, and the socket door, which runs
 * the REST routes' own command table, gate and credential check, so a socket command answers
 * exactly as its route does.
 */
export function assembleLobbyCommands(input: {
  config: Pick<Config, 'userRateLimits' | 'lobbyCreatesPerMinute'>;
  live: LiveStore;
  clock: () => number;
  engine: LobbyEngine;
  observe: (engine: LobbyEngine, gate: LobbyCommandGate) => { engine: LobbyEngine; gate: LobbyCommandGate };
  sockets: SocketServer;
  identity: Identity;
  door: DoorAssembly;
  presence: Presence;
}): LobbyCommands {
  const { config, identity, door } = input;
  const limits = new UserActionLimit(input.live, input.clock, refuseWithHttpError, userActionLimits(config.userRateLimits, config.lobbyCreatesPerMinute));
  const { engine: lobbies, gate } = input.observe(
    input.engine,
    // The limit is also offered as a hit for the engine to count in the command's own commit: one round trip for both.
    Object.assign((type: string, caller: Caller) => limits.check(type, caller), { limitOf: (type: string, caller: Caller) => limits.limitOf(type, caller) }),
  );
  input.sockets.serve({
    lobbies: input.engine,
    runCommand: (code, name, body, caller) => runLobbyCommand(lobbies, code, name, body as never, caller, gate),
    authenticate: identity.authenticator.authenticateRecent,
    exchange: door,
    addressOf: door.addressOf,
    errorStatus: toHttpError,
    presence: input.presence,
    resolveCredential: ({ cookieHeader, token, peerAddress, forwardedFor }) =>
      identity.authenticator.resolveSocketCredential({ cookieHeader, token, address: door.addressOf(peerAddress, forwardedFor) }),
  });
  return { lobbies, gate };
}
