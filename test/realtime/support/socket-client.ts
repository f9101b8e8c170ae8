import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, HandshakeRefusal, ServerToClientEvents } from '../../../schema/realtime';

export type LeagueClient = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface ConnectOptions {
  /** `league_session=...`, as a browser would send it. */
  cookie?: string;
  /** A premium or admin key, as a bot sends it. */
  token?: string;
  reconnection?: boolean;
  /** The Origin header a browser page would send. */
  origin?: string;
}

const WAIT_MS = 5_000;
const open = new Set<LeagueClient>();

/** A websocket client, resolved once connected; rejected with the server's refusal otherwise. */
export function connect(url: string, options: ConnectOptions = {}): Promise<LeagueClient> {
  const socket: LeagueClient = io(url, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: options.reconnection ?? false,
    extraHeaders: {
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.origin ? { origin: options.origin } : {}),
    },
    auth: options.token ? { token: options.token } : {},
  });
  open.add(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error: Error & { data?: HandshakeRefusal }) => {
      socket.close();
      reject(Object.assign(new Error(`connect refused: ${error.message}`), { data: error.data }));
    });
  });
}

export function closeAllClients(): void {
  for (const socket of open) socket.close();
  open.clear();
}

/** The next `event` whose payload passes `accept`, or a rejection after a bounded wait. */
export function nextEvent<E extends keyof ServerToClientEvents>(
  socket: LeagueClient,
  event: E,
  accept: (payload: Parameters<ServerToClientEvents[E]>[0]) => boolean = () => true,
  waitMs = WAIT_MS,
): Promise<Parameters<ServerToClientEvents[E]>[0]> {
  return new Promise((resolve, reject) => {
    const listener = ((payload: Parameters<ServerToClientEvents[E]>[0]) => {
      if (!accept(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener as never);
      resolve(payload);
    }) as never;
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`no ${String(event)} within ${waitMs} ms`));
    }, waitMs);
    socket.on(event, listener);
  });
}

/** Every `event` received from now on, for asserting what did (or did not) arrive. */
export function recordEvents<E extends keyof ServerToClientEvents>(socket: LeagueClient, event: E): Array<Parameters<ServerToClientEvents[E]>[0]> {
  const seen: Array<Parameters<ServerToClientEvents[E]>[0]> = [];
  socket.on(event, ((payload: Parameters<ServerToClientEvents[E]>[0]) => seen.push(payload)) as never);
  return seen;
}

/** emit with acknowledgement, bounded in time. */
export function request<T>(socket: LeagueClient, event: string, ...args: unknown[]): Promise<T> {
  return (socket.timeout(WAIT_MS) as unknown as { emitWithAck(event: string, ...args: unknown[]): Promise<T> }).emitWithAck(event, ...args);
}
