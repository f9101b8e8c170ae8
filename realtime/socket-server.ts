import type { Logger } from 'pino';
import { createClient } from 'redis';
import { Server } from 'socket.io';
import type { ClientToServerEvents, InterServerEvents, ServerToClientEvents, SocketData } from '../schema/realtime';
import type { LobbyBroadcast } from '../src/engine/lobby-broadcast';
import { handleLobbyEvents } from './lobby-socket-handlers';
import type { ErrorStatus, LobbyCommandRunner, LobbyReads, PresenceTouch, RouteAuthenticator, SocketCredentialResolver } from './realtime-ports';
import { createRecoveringRedisAdapter } from './recovering-redis-adapter';
import { socketBroadcast } from './socket-broadcast';
import { authenticateHandshake, credentialReader } from './socket-handshake';
import { keepSessionsOnline } from './socket-presence';
import type { UwsApp } from './uws-host';

export type LeagueIo = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface SocketServerOptions {
  logger: Logger;
  /** Set: the Redis adapter, so a broadcast on any instance reaches every instance's sockets. */
  redis?: { url: string; prefix: string };
  /** How long a dropped client's rooms and missed events are kept for it (default 2 minutes). */
  recoveryWindowMs?: number;
  /** The site's own address: pages from this origin (or the Host asked for) may use the session cookie. */
  publicUrl?: string;
}

export interface LobbyServices {
  lobbies: LobbyReads;
  runCommand: LobbyCommandRunner;
  /** Each lobby command's credential check: the REST one (see RouteAuthenticator). */
  authenticate: RouteAuthenticator;
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
const CLOSE_TIMEOUT_MS = 3_000;
/** Every instance keeps every broadcast of the recovery window for replay; this caps the memory (about 50 MB of lobby updates). */
const MAX_REPLAY_PACKETS = 20_000;

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
  let redis: AdapterClients | null = null;
  if (options.redis) {
    redis = await connectAdapterClients(options.redis.url, options.logger);
    // The configured prefix keeps deployments (and test runs) sharing one Redis apart.
    const key = `${options.redis.prefix}socket.io`;
    io.adapter(createRecoveringRedisAdapter(redis.pub, redis.sub, { key }, { maxDisconnectionDuration, maxPackets: MAX_REPLAY_PACKETS }));
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
      const readCredentials = credentialReader(options.publicUrl);
      io.use(authenticateHandshake(services.resolveCredential, readCredentials, options.logger));
      io.on('connection', (socket) => handleLobbyEvents(socket, services, readCredentials, options.logger));
      stopPresence = keepSessionsOnline(io, services.presence, options.logger);
    },
    close: () =>
      (closing ??= (async () => {
        stopPresence?.();
        await io.close();
        if (redis) await closeAdapterClients(redis);
      })()),
  };
}

type RedisClient = ReturnType<typeof createClient>;
interface AdapterClients {
  pub: RedisClient;
  sub: RedisClient;
}

/** The adapter's own pair (a subscriber connection can do nothing else), apart from the live store's. */
async function connectAdapterClients(url: string, logger: Logger): Promise<AdapterClients> {
  const pub = createClient({ url });
  const sub = pub.duplicate();
  const onError = (error: unknown) => logger.error({ err: error }, 'socket.io redis adapter connection error');
  pub.on('error', onError);
  sub.on('error', onError);
  try {
    await Promise.all([pub.connect(), sub.connect()]);
  } catch (error) {
    for (const client of [pub, sub]) if (client.isOpen) client.destroy();
    throw error;
  }
  return { pub, sub };
}

/** Lets sent commands finish, but not for ever: with Redis gone they never would. */
async function closeAdapterClients(clients: AdapterClients): Promise<void> {
  const both = [clients.pub, clients.sub];
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)));
  await Promise.race([Promise.allSettled(both.map((client) => client.close())), gaveUp]);
  clearTimeout(timer);
  for (const client of both) if (client.isOpen) client.destroy();
}
