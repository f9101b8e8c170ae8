import type { Logger } from 'pino';
import type { Socket } from 'socket.io';
import * as v from 'valibot';
import {
  LobbyCommandPayload,
  LobbySubscribePayload,
  type AckError,
  type ClientToServerEvents,
  type CommandAck,
  type InterServerEvents,
  type ServerToClientEvents,
  type SocketData,
} from '../schema/realtime';
import { describeIssues } from '../schema/issue-message';
import { LobbyCodeParams } from '../schema/lobby-bodies';
import { parseInput } from '../schema/parse-input';
import type { LobbyServices } from './socket-server';
import { LOBBIES_ROOM, lobbyRoom } from './socket-broadcast';
import type { CredentialReader } from './socket-handshake';

type LeagueSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type Ack = (answer: unknown) => void;

/**
 * One socket's events. Payloads are untrusted: each is validated, each handler answers through
 * its acknowledgement exactly once (an error answer carries the status REST would give), and an
 * unexpected failure is logged and answered 500 rather than left hanging.
 */
export function handleLobbyEvents(socket: LeagueSocket, services: LobbyServices, readCredentials: CredentialReader, logger: Logger): void {
  const { userId, credential } = socket.data;
  if (userId !== null && credential === 'session') void services.presence.touch(userId)?.catch(() => undefined);

  const on = (event: keyof ClientToServerEvents, handle: (payload: unknown) => Promise<unknown>) => {
    socket.on(event, (...args: unknown[]) => {
      const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as Ack) : () => undefined;
      handle(args[0]).then(ack, (error: unknown) => {
        logger.error({ err: error, event, socketId: socket.id }, 'socket event failed');
        ack(failure(500, 'internal error'));
      });
    });
  };

  on('lobby:subscribe', async (payload) => {
    const parsed = parseInput(LobbySubscribePayload, payload, 'payload');
    if (!parsed.ok) return failure(400, parsed.message);
    const code = lobbyCodeOf(parsed.value.code);
    if (code === null) return failure(404, 'lobby not found');
    const room = lobbyRoom(code);
    // Join before reading: an update racing the read then arrives after the snapshot (a newer
    // version) or before it (an older one the client drops); it is never lost in between.
    await socket.join(room);
    const lobby = await services.lobbies.detail(code);
    if (!lobby) {
      await socket.leave(room);
      return failure(404, 'lobby not found');
    }
    return { lobby };
  });

  on('lobby:unsubscribe', async (payload) => {
    const parsed = parseInput(LobbySubscribePayload, payload, 'payload');
    if (!parsed.ok) return failure(400, parsed.message);
    const code = lobbyCodeOf(parsed.value.code);
    if (code !== null) await socket.leave(lobbyRoom(code));
    return { ok: true };
  });

  on('lobbies:subscribe', async () => {
    await socket.join(LOBBIES_ROOM);
    return { lobbies: await services.lobbies.summaries() };
  });

  on('lobby:command', async (payload): Promise<CommandAck> => {
    const parsed = parseInput(LobbyCommandPayload, payload, 'payload');
    if (!parsed.ok) return failure(400, parsed.message);
    const { code, type, ...body } = parsed.value;
    // The credential is checked per command, as REST checks it per request.
    const credential = await services.resolveCredential(readCredentials(socket));
    if (!credential.ok) return failure(credential.status, credential.error);
    if (credential.caller.user === null) return failure(401, 'login required');
    try {
      const result = await services.runCommand(code, type, body, credential.caller);
      return { ...(isRecord(result.body) ? result.body : {}), ok: true };
    } catch (error) {
      const mapped = services.errorStatus(error);
      if (!mapped) throw error;
      return failure(mapped.status, mapped.message);
    }
  });
}

/** The REST path's rule: letters and digits, any case; null for what cannot name a lobby. */
function lobbyCodeOf(raw: string): string | null {
  const parsed = v.safeParse(LobbyCodeParams, { code: raw });
  return parsed.success ? parsed.output.code : null;
}

function failure(status: number, error: string): AckError {
  return { error, status };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
