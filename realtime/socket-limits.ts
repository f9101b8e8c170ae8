import type { Socket } from 'socket.io';
import type { AckError, HandshakeRefusal } from '../schema/realtime';
import { lobbyCodeOf } from './lobby-socket-handlers';
import { lobbyRoom } from './socket-broadcast';

/** What a shared server allows one client: sockets per address (many players may share a NAT) and lobby rooms per socket. */
export interface SocketLimits {
  perAddress: number;
  subscriptionsPerSocket: number;
  /** The client's address as the REST door sees it (X-Forwarded-For only from a trusted proxy). */
  addressOf(peerAddress: string, forwardedFor: string | undefined): string;
}

type Next = (error?: Error & { data?: HandshakeRefusal }) => void;

/**
 * The last connection middleware: counts the open sockets of each client address on this
 * instance and refuses one over the limit with 429 in `connect_error`'s `data`. The count is
 * taken before the connection completes and given back when its transport closes, so a burst of
 * handshakes cannot all pass a check made while none had connected yet.
 */
export function limitSocketsPerAddress(limits: Pick<SocketLimits, 'perAddress' | 'addressOf'>) {
  const open = new Map<string, number>();
  const middleware = (socket: Pick<Socket, 'handshake' | 'conn'>, next: Next): void => {
    const forwarded = socket.handshake.headers['x-forwarded-for'];
    const address = limits.addressOf(socket.handshake.address, Array.isArray(forwarded) ? forwarded.join(',') : forwarded);
    const count = open.get(address) ?? 0;
    if (count >= limits.perAddress) {
      const error = `too many connections from this address: at most ${limits.perAddress}`;
      return next(Object.assign(new Error(error), { data: { status: 429, error } }));
    }
    open.set(address, count + 1);
    socket.conn.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
    next();
  };
  return Object.assign(middleware, { openFrom: (address: string) => open.get(address) ?? 0 });
}

/**
 * Runs before one socket's handlers: a `lobby:subscribe` to a lobby the socket is not yet in,
 * once it is in `max` lobbies, is answered 429 (and dropped when it asked no answer). The handler
 * joins the room before its first await, so the count below already holds earlier subscribes.
 */
export function limitSubscriptions(socket: Pick<Socket, 'use' | 'rooms'>, max: number): void {
  socket.use(([event, payload, ...rest], next) => {
    if (event !== 'lobby:subscribe' || !isOverLimit(socket.rooms, payload, max)) return next();
    const ack = [payload, ...rest].reverse().find((arg) => typeof arg === 'function') as ((answer: AckError) => void) | undefined;
    ack?.({ error: `too many lobby subscriptions on this socket: at most ${max}; unsubscribe from one first`, status: 429 });
  });
}

function isOverLimit(rooms: ReadonlySet<string>, payload: unknown, max: number): boolean {
  let lobbies = 0;
  for (const room of rooms) if (room.startsWith(lobbyRoom(''))) lobbies++;
  if (lobbies < max) return false;
  const raw = typeof payload === 'object' && payload !== null ? (payload as { code?: unknown }).code : undefined;
  const code = typeof raw === 'string' ? lobbyCodeOf(raw) : null;
  // Subscribing again to a lobby it is in adds nothing.
  return code === null || !rooms.has(lobbyRoom(code));
}
