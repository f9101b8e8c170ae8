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
import { NoBody, parseInput } from '../schema/parse-input';
import type { RouteContract } from '../schema/route-contract';
import { isLobbyCommandName, lobbyCommandContracts, type LobbyCommandName } from '../schema/routes/lobby-routes';
import type { LobbyServices } from './socket-server';
import { LOBBIES_ROOM, lobbyRoom } from './socket-broadcast';
import type { PresentedSocketCredentials } from './realtime-ports';
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
    if (!isLobbyCommandName(type)) return failure(400, `type: unknown lobby command "${type}"`);
    return commandAsRest(type, code, body);
  });

  /**
   * A socket command is its REST route, step for step as rest/route-binder.ts takes it: the
   * route's credential check (on a request made of what the socket presented), its path and body
   * schemas, the engine, its success status; a refusal gets the REST status and message.
   */
  async function commandAsRest(name: LobbyCommandName, rawCode: string, body: Record<string, unknown>): Promise<CommandAck> {
    const route = lobbyCommandContracts[name] as RouteContract;
    const exchange = restExchange(readCredentials(socket), route, rawCode);
    let ack: CommandAck;
    try {
      const caller = await services.authenticate(exchange.req, exchange.res, route);
      const params = parseInput(route.params!, { code: rawCode }, 'path');
      const input = parseInput(route.body ?? NoBody, body, 'body');
      if (!params.ok) ack = failure(404, 'not found');
      else if (!input.ok) ack = failure(400, input.message);
      else {
        const result = await services.runCommand((params.value as { code: string }).code, name, input.value, caller);
        ack = { ...(isRecord(result) ? result : {}), ok: true, status: route.success.status };
      }
    } catch (error) {
      const mapped = services.errorStatus(error);
      if (!mapped) {
        exchange.finish(500);
        throw error;
      }
      ack = failure(mapped.status, mapped.message);
    }
    exchange.finish(ack.status);
    return ack;
  }
}

/**
 * The request a socket command stands for, for the REST credential check: the socket's cookie
 * (when its page was ours, see socket-handshake.ts), its key as a bearer header, its peer and
 * forwarded-for addresses; the response's `finish` fires with the status the ack carries.
 */
function restExchange(presented: PresentedSocketCredentials, route: RouteContract, rawCode: string) {
  const path = route.path.replace(':code', pathSegment(rawCode));
  const headers: Record<string, string | undefined> = {
    cookie: presented.cookieHeader,
    authorization: presented.token === undefined ? undefined : `Bearer ${presented.token}`,
    'x-forwarded-for': presented.forwardedFor,
  };
  let onFinish: (() => void) | undefined;
  const res = {
    statusCode: 200,
    setHeader: () => res,
    once: (_event: 'finish', listener: () => void) => {
      onFinish = listener;
      return res;
    },
  };
  return {
    req: { headers, method: route.method.toUpperCase(), url: path, path, ip: presented.peerAddress },
    res,
    finish(status: number) {
      res.statusCode = status;
      onFinish?.();
    },
  };
}

/** The REST path's rule: letters and digits, any case; null for what cannot name a lobby. */
export function lobbyCodeOf(raw: string): string | null {
  const parsed = v.safeParse(LobbyCodeParams, { code: raw });
  return parsed.success ? parsed.output.code : null;
}

function failure(status: number, error: string): AckError {
  return { error, status };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The code as a path segment for the audit row; a socket payload may hold lone surrogates, which a URL cannot. */
function pathSegment(rawCode: string): string {
  try {
    return encodeURIComponent(rawCode);
  } catch {
    return encodeURIComponent(rawCode.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
}
