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
import type { RouteContract } from '../schema/route-contract';
import { isLobbyCommandName, lobbyCommandContracts, type LobbyCommandName } from '../schema/routes/lobby-routes';
import type { DoorBindings } from '../src/door/door-bindings';
import { runExchange, type Answer } from '../src/door/exchange';
import type { PresentedRequest } from '../src/door/presented-request';
import { requestIdOf } from '../src/door/request-id';
import type { LobbyServices } from './socket-server';
import { ackError, answerEvent, reportedElsewhere } from './room-feed';
import { LOBBIES_ROOM } from './socket-broadcast';
import { lobbyRoom, type LobbyFanout } from './lobby-fanout';
import type { PresentedSocketCredentials } from './realtime-ports';
import type { CredentialReader } from './socket-handshake';

type LeagueSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type Ack = (answer: unknown) => void;

/**
 * One socket's events. Payloads are untrusted: each is validated, each handler answers through
 * its acknowledgement exactly once (an error answer carries the status REST would give), and an
 * unexpected failure is logged and answered 500 rather than left hanging.
 */
export function handleLobbyEvents(
  socket: LeagueSocket,
  services: LobbyServices,
  fanout: LobbyFanout,
  readCredentials: CredentialReader,
  logger: Logger,
): void {
  const { userId, credential } = socket.data;
  if (userId !== null && credential === 'session') void services.presence.touch(userId)?.catch(() => undefined);

  const answers = { errorStatus: services.errorStatus, logger, observers: services.exchange.observers };
  const on = (event: keyof ClientToServerEvents, handle: (payload: unknown) => Promise<unknown>) =>
    answerEvent(socket, event, answers, handle);

  on('lobby:subscribe', async (payload) => {
    const parsed = parseInput(LobbySubscribePayload, payload, 'payload');
    if (!parsed.ok) return ackError(400, parsed.message);
    const code = lobbyCodeOf(parsed.value.code);
    if (code === null) return ackError(404, 'lobby not found');
    const room = lobbyRoom(code);
    // The membership room at once (chat, the subscription limit); updates stop until the ack, so
    // none reaches the client before its snapshot (a subscribe again starts over).
    fanout.stop(socket.id, code);
    await socket.join(room);
    const lobby = await services.lobbies.detail(code);
    if (!lobby) {
      await socket.leave(room);
      return ackError(404, 'lobby not found');
    }
    // No await from here to the ack: the fan-out sends this socket exactly the versions after the
    // one acknowledged (see LobbyFanout.watch).
    return { lobby: fanout.watch(socket.id, lobby, parsed.value.patches === true) };
  });

  on('lobby:unsubscribe', async (payload) => {
    const parsed = parseInput(LobbySubscribePayload, payload, 'payload');
    if (!parsed.ok) return ackError(400, parsed.message);
    const code = lobbyCodeOf(parsed.value.code);
    if (code !== null) {
      fanout.stop(socket.id, code);
      await socket.leave(lobbyRoom(code));
    }
    return { ok: true };
  });

  socket.on('disconnecting', () => {
    for (const room of socket.rooms) if (room.startsWith(lobbyRoom(''))) fanout.dropped(socket.id, room.slice(lobbyRoom('').length));
  });

  on('lobbies:subscribe', async () => {
    await socket.join(LOBBIES_ROOM);
    return { lobbies: await services.lobbies.summaries() };
  });

  on('lobby:command', async (payload) => {
    // Refused before the exchange: reported here, as any socket event; past it, the exchange reports.
    const parsed = parseInput(LobbyCommandPayload, payload, 'payload');
    if (!parsed.ok) return ackError(400, parsed.message);
    const { code, type, ...body } = parsed.value;
    if (!isLobbyCommandName(type)) return ackError(400, 'type: not a lobby command');
    return reportedElsewhere(await commandAsRest(type, code, body));
  });

  /**
   * A socket command is its REST route, through the one exchange (src/door/exchange.ts): in-flight,
   * the route's credential check on what the socket presented, its path and body schemas, the
   * engine, its success status, the one error mapping and the observers; the answer is the ack.
   */
  function commandAsRest(name: LobbyCommandName, rawCode: string, body: Record<string, unknown>): Promise<CommandAck> {
    const route = lobbyCommandContracts[name] as RouteContract;
    return new Promise((resolve) => {
      const door = {
        send: (answer: Answer) => {
          const payload = (answer.body ?? {}) as Record<string, unknown>;
          resolve(answer.status < 300 ? { ...(isRecord(payload) ? payload : {}), ok: true, status: answer.status } : ackError(answer.status, String(payload.error), answer.headers));
        },
      };
      void runExchange(
        services.exchange,
        route,
        services.authenticate,
        { door: 'socket', presented: presentedOfSocket(readCredentials(socket), route, rawCode, services.addressOf), input: () => ({ params: { code: rawCode }, query: {}, body }) },
        ({ params, body: parsed, caller }) => services.runCommand((params as { code: string }).code, name, parsed, caller),
        door,
      );
    });
  }
}

/** Records that every lobby command's route is served at the socket door too (the parity test drives it there). */
export function bindLobbyCommands(bindings: DoorBindings | undefined): void {
  for (const route of Object.values(lobbyCommandContracts)) bindings?.bound(route as RouteContract, 'socket');
}

/**
 * What a socket command presents, as an HTTP request to its route would: the socket's cookie
 * (when its page was ours, see socket-handshake.ts), its key as a bearer header, its client
 * address; no Origin (the handshake checked the page), so the CSRF rule sees a non-browser.
 */
function presentedOfSocket(
  presented: PresentedSocketCredentials,
  route: RouteContract,
  rawCode: string,
  addressOf: (peer: string, forwardedFor: string | undefined) => string,
): PresentedRequest {
  const path = route.path.replace(':code', pathSegment(rawCode));
  return {
    method: route.method.toUpperCase(),
    path,
    target: path,
    cookie: presented.cookieHeader,
    authorization: presented.token === undefined ? undefined : `Bearer ${presented.token}`,
    clientAddress: addressOf(presented.peerAddress, presented.forwardedFor),
    requestId: requestIdOf(undefined),
  };
}

/** The REST path's rule: letters and digits, any case; null for what cannot name a lobby. */
export function lobbyCodeOf(raw: string): string | null {
  const parsed = v.safeParse(LobbyCodeParams, { code: raw });
  return parsed.success ? parsed.output.code : null;
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
