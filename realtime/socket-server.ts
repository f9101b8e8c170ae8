import type { Logger } from 'pino';
import { createClient } from 'redis';
import { Server } from 'socket.io';
import type { ClientToServerEvents, InterServerEvents, ServerToClientEvents, SocketData } from '../schema/realtime';
import type { LobbyBroadcast } from '../src/engine/lobby-broadcast';
import { handleLobbyEvents } from './lobby-socket-handlers';
import type { ErrorStatus, LobbyCommandRunner, LobbyReads, PresenceTouch, SocketCredentialResolver } from './realtime-ports';
import { createRecoveringRedisAdapter } from './recovering-redis-adapter';
import { socketBroadcast } from './socket-broadcast';
import { authenticateHandshake } from './socket-handshake';
import { keepSessionsOnline } from './socket-presence';
import type { UwsApp } from './uws-host';

export type LeagueIo = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface SocketServerOptions {
  logger: Logger;
  /** Set: the Redis adapter, so a broadcast on any instance reaches every instance's sockets. */
  redis?: { url: string; prefix: string };
  /** How long a dropped client's rooms and missed events are kept for it (default 2 minutes). */
  recoveryWindowMs?: number;
}

export interface LobbyServices {
  lobbies: LobbyReads;
  runCommand: LobbyCommandRunner;
  errorStatus: ErrorStatus;
  resolveCredential: SocketCredentialResolver;
  presence: PresenceTouch;
}

export interface SocketServer {
  io: LeagueIo;
  /** The engine's broadcast port: `io.to(room)` so uWS publishes natively, through Redis when set. */
  broadcast: LobbyBroadcast;
  /** Starts answering socket events; call once the lobby engine exists (before listening). */
  serve(services: LobbyServices): void;
  /** Disconnects every socket, leaves Redis; safe to call twice. */
  close(): Promise<void>;
}

const MAX_EVENT_BYTES = 64 * 1024;
const MAX_BACKPRESSURE_BYTES = 1024 * 1024;

/**
 * socket.io attached to the shared uWS app. Attach it before the REST app: socket.io's
 * `/socket.io/*` routes are more specific than express's catch-all. One per process (socket.io
 * patches the adapter prototype process-wide for the uWS fast path).
 */
export async function attachSocketServer(uws: UwsApp, options: SocketServerOptions): Promise<SocketServer> {
  const maxDisconnectionDuration = options.recoveryWindowMs ?? 2 * 60_000;
  const io: LeagueIo = new Server({
    maxHttpBufferSize: MAX_EVENT_BYTES,
    // Middlewares run again on recovery: the session or key may have ended while the client was away.
    connectionStateRecovery: { maxDisconnectionDuration, skipMiddlewares: false },
  });
  const redis = options.redis ? await connectAdapterClients(options.redis.url, options.logger) : null;
  if (redis && options.redis) {
    io.adapter(
      createRecoveringRedisAdapter(redis.pub, redis.sub, { key: `${options.redis.prefix}socket.io` }, { maxDisconnectionDuration, maxPackets: 50_000 }),
    );
  }
  // uWS silently skips a receiver whose send buffer passes this (its default is 64 KB, about 30
  // lobby updates); 1 MB, engine.io's documented default, only skips a client that is truly stuck.
  io.attachApp(uws, { maxBackpressure: MAX_BACKPRESSURE_BYTES } as Parameters<LeagueIo['attachApp']>[1]);

  let stopPresence: (() => void) | undefined;
  let closing: Promise<void> | undefined;
  return {
    io,
    broadcast: socketBroadcast(io),
    serve(services) {
      io.use(authenticateHandshake(services.resolveCredential, options.logger));
      io.on('connection', (socket) => handleLobbyEvents(socket, services, options.logger));
      stopPresence = keepSessionsOnline(io, services.presence, options.logger);
    },
    close: () =>
      (closing ??= (async () => {
        stopPresence?.();
        await io.close();
        if (redis) await Promise.allSettled([redis.pub.quit(), redis.sub.quit()]);
      })()),
  };
}

/** The adapter's own pair (a subscriber connection can do nothing else), apart from the live store's. */
async function connectAdapterClients(url: string, logger: Logger) {
  const pub = createClient({ url });
  const sub = pub.duplicate();
  const onError = (error: unknown) => logger.error({ err: error }, 'socket.io redis adapter connection error');
  pub.on('error', onError);
  sub.on('error', onError);
  await Promise.all([pub.connect(), sub.connect()]);
  return { pub, sub };
}
