import type { Logger } from 'pino';
import { Server, type Socket } from 'socket.io';
import type { ClientToServerEvents, HandshakeRefusal, InterServerEvents, ServerToClientEvents, SocketData } from '../schema/realtime';
import type { LobbyBroadcast } from '../src/engine/lobby-broadcast';
import { bindLobbyCommands, handleLobbyEvents } from './lobby-socket-handlers';
import { guardSocketEvents } from './socket-event-guard';
import type { ErrorStatus, LobbyCommandRunner, LobbyReads, PresenceTouch, RouteAuthenticator, SocketCredentialResolver } from './realtime-ports';
import { createRecoveringAdapter } from './recovering-adapter';
import type { RecoveringAdapter } from './recovering-adapter';
import { socketBroadcast } from './socket-broadcast';
import { authenticateHandshake, credentialReader } from './socket-handshake';
import { keepSessionsOnline } from './socket-presence';
import { watchBackpressure } from './backpressure-watch';
import { reportSocketEvent, RoomFanout, serveRoomFeed, type FeedAnswers, type RoomFeed } from './room-feed';
import { feedSubscriptions, limitSocketsPerAddress, limitSubscriptions, lobbySubscriptions, type SocketLimits, type SubscriptionKind } from './socket-limits';
import type { UwsApp } from '../host/uws-host';
import type { ExchangeDeps } from '../src/door/exchange';

export type LeagueIo = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type HandshakeNext = (error?: Error & { data?: HandshakeRefusal }) => void;
/** A refusal's status as the handshake middlewares write it (`connect_error`'s `data`). */
const handshakeStatusOf = (error: Error & { data?: HandshakeRefusal }): number => error.data?.status ?? 500;

export type LeagueSocket = Parameters<Parameters<LeagueIo['on']>[1]>[0];

export interface SocketServerOptions {
  logger: Logger;
  /** How long a dropped client's rooms and missed events are kept for it (default 2 minutes). */
  recoveryWindowMs?: number;
  /** The site's own address: pages from this origin (or the Host asked for) may use the session cookie. */
  publicUrl?: string;
  /** Sockets per client address and subscriptions (lobbies and area feeds) per socket (unset: unlimited, for tests of other things). */
  limits?: SocketLimits;
}

export interface LobbyServices {
  lobbies: LobbyReads;
  runCommand: LobbyCommandRunner;
  /** Each lobby command's credential check: the REST one (see RouteAuthenticator). */
  authenticate: RouteAuthenticator;
  /** The one exchange's deps (in-flight, logger, observers): a command runs the REST pipeline. */
  exchange: ExchangeDeps;
  /** The client address from the socket's peer and forwarded-for, by the trusted proxies. */
  addressOf: (peer: string, forwardedFor: string | undefined) => string;
  errorStatus: ErrorStatus;
  resolveCredential: SocketCredentialResolver;
  presence: PresenceTouch;
}

export interface SocketServer {
  io: LeagueIo;
  /** The engine's broadcast port, fed from the live store's lobby feed: this instance's sockets only, one native uWS publish each. */
  broadcast: LobbyBroadcast;
  /** Starts answering socket events; call once the lobby engine exists (before listening). */
  serve(services: LobbyServices): void;
  /** An area's live feed of a record (team, thread, tournament) on every new socket (its events named, so the event guard lets them through), answered as the lobby events are. */
  serveFeed<T>(feed: RoomFeed<T>): void;
  /** An area feed's update of one record's room, to this instance's subscribers (after their snapshots, see RoomFanout). */
  deliverToRoom(room: string, event: string, payload: unknown, version?: number): void;
  /** The rooms starting with `prefix` that a socket of this instance is in (an area feed's watched records). */
  watchedRooms(prefix: string): string[];
  /** Disconnects every socket; safe to call twice. */
  close(): Promise<void>;
}

/** The advertised per-event limit (answered 413 by socket-event-guard.ts); the transport takes twice it, so an event a little over it still gets an answer. */
const MAX_EVENT_BYTES = 64 * 1024;
const MAX_FRAME_BYTES = 2 * MAX_EVENT_BYTES;
const MAX_BACKPRESSURE_BYTES = 1024 * 1024;
/** Every instance keeps every broadcast of the recovery window for replay; this caps the memory (about 50 MB of lobby updates). */
const MAX_REPLAY_PACKETS = 20_000;

/**
 * socket.io attached to the shared uWS app. No socket.io adapter crosses instances: the lobby feed
 * of the live store reaches every instance in commit order (src/engine/lobby-broadcast.ts), and
 * each emits to its own sockets, so two instances' updates can no longer interleave out of order.
 * Attach it before the REST app: socket.io's
 * `/socket.io/*` routes are more specific than express's catch-all. One per process (socket.io
 * patches the adapter prototype process-wide for the uWS fast path).
 */
export async function attachSocketServer(uws: UwsApp, options: SocketServerOptions): Promise<SocketServer> {
  const maxDisconnectionDuration = options.recoveryWindowMs ?? 2 * 60_000;
  const io: LeagueIo = new Server({
    maxHttpBufferSize: MAX_FRAME_BYTES,
    // Middlewares run again on recovery: the session or key may have ended while the client was away.
    connectionStateRecovery: { maxDisconnectionDuration, skipMiddlewares: false },
    adapter: createRecoveringAdapter({
      maxDisconnectionDuration,
      maxPackets: MAX_REPLAY_PACKETS,
      // A topic nobody here subscribes to (a lobby no socket of this instance watches) costs no
      // copy of the frame into uWS: the packet is still kept for recovery by the adapter.
      publish: (topic, message) => void (uws.numSubscribers(topic) > 0 && uws.publish(topic, message, false)),
    }) as never,
  });
  // uWS silently skips a receiver whose send buffer passes this (its default is 64 KB, about 30
  // lobby updates); 1 MB, engine.io's documented default, only skips a client that is truly stuck.
  const backpressure = watchBackpressure(uws, MAX_BACKPRESSURE_BYTES);
  io.attachApp(uws, { maxBackpressure: MAX_BACKPRESSURE_BYTES } as Parameters<LeagueIo['attachApp']>[1]);

  let stopPresence: (() => void) | undefined;
  let closing: Promise<void> | undefined;
  const broadcast = socketBroadcast(io);
  const connectionHandlers: Array<(socket: LeagueSocket) => void> = [];
  /** How area events are answered: set by `serve`, before any socket connects. */
  let answers: FeedAnswers | undefined;
  const areaEvents = new Set<string>();
  /** What the subscription limit counts: lobbies and every area feed served. */
  const subscriptionKinds: SubscriptionKind[] = [lobbySubscriptions];
  // One room broadcast (a single native uWS publish) unless a subscriber is waiting for its snapshot.
  const roomFanout = new RoomFanout((room, except, event, payload) => {
    const to = except.length === 0 ? io.local.to(room) : io.local.to(room).except([...except]);
    (to as unknown as { emit(e: string, p: unknown): boolean }).emit(event, payload);
  });
  return {
    io,
    broadcast,
    serve(services) {
      answers = { errorStatus: services.errorStatus, logger: options.logger, observers: services.exchange.observers };
      const readCredentials = credentialReader(options.publicUrl);
      bindLobbyCommands(services.exchange.bindings);
      // An event refused before any handler gets its access line and metrics as any other.
      const refused = (route: string, status: number, started: number) => reportSocketEvent(answers!, route, status, started);
      // So does a refused handshake (`CONNECT handshake` with the refusal's status).
      const reporting = <S,>(middleware: (socket: S, next: HandshakeNext) => unknown) => (socket: S, next: HandshakeNext) => {
        const started = performance.now();
        return middleware(socket, (error) => {
          if (error) reportSocketEvent(answers!, 'handshake', handshakeStatusOf(error), started, undefined, 'CONNECT');
          next(error);
        });
      };
      io.use(reporting(authenticateHandshake(services.resolveCredential, readCredentials, options.logger, services.errorStatus)));
      // Last: a handshake the credential check refused takes no place in its address's count.
      if (options.limits) io.use(reporting(limitSocketsPerAddress(options.limits)));
      io.on('connection', (socket) => {
        (io.of('/').adapter as unknown as RecoveringAdapter).resume(socket as never);
        guardSocketEvents(
          socket,
          MAX_EVENT_BYTES,
          (error) => options.logger.error({ err: error, socketId: socket.id }, 'socket event guard failed; socket dropped'),
          areaEvents,
          refused,
        );
        if (options.limits) limitSubscriptions(socket, options.limits.subscriptionsPerSocket, subscriptionKinds, refused);
        handleLobbyEvents(socket, services, broadcast.fanout, readCredentials, options.logger);
        for (const handler of connectionHandlers) handler(socket);
      });
      stopPresence = keepSessionsOnline(io, services.presence, options.logger);
      backpressure.attach(io.of('/'), broadcast.fanout);
    },
    serveFeed(feed) {
      for (const event of [feed.subscribe, feed.unsubscribe]) areaEvents.add(event);
      subscriptionKinds.push(feedSubscriptions(feed));
      connectionHandlers.push((socket) => serveRoomFeed(socket as never, feed, roomFanout, answers!));
    },
    deliverToRoom: (room, event, payload, version) => roomFanout.deliver(room, event, payload, version),
    watchedRooms: (prefix) => [...io.of('/').adapter.rooms.keys()].filter((room) => room.startsWith(prefix)),
    close: () =>
      (closing ??= (async () => {
        stopPresence?.();
        backpressure.stop();
        broadcast.flush();
        await io.close();
      })()),
  };
}
