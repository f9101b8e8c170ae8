import type { Socket } from 'socket.io';
import * as v from 'valibot';
import type { AckError, HandshakeRefusal } from '../schema/realtime';
import { lobbyCodeOf } from './lobby-socket-handlers';
import { lobbyRoom } from './lobby-fanout';
import type { RoomFeed } from './room-feed';
import type { RefusedEvent } from './socket-event-guard';

/** What a shared server allows one client: sockets per address (many players may share a NAT) and subscriptions per socket (lobbies, teams, threads, tournaments together). */
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

/** One kind of subscription the limit counts: its subscribe event, the room a payload asks for (null: none it could name), and whether a room is one of its. */
export interface SubscriptionKind {
  event: string;
  roomOf(payload: unknown): string | null;
  isRoom(room: string): boolean;
}

/** Lobby subscriptions: the membership room `lobby:<code>`. */
export const lobbySubscriptions: SubscriptionKind = {
  event: 'lobby:subscribe',
  roomOf(payload) {
    const raw = typeof payload === 'object' && payload !== null ? (payload as { code?: unknown }).code : undefined;
    const code = typeof raw === 'string' ? lobbyCodeOf(raw) : null;
    return code === null ? null : lobbyRoom(code);
  },
  isRoom: (room) => room.startsWith(lobbyRoom('')),
};

/** An area feed's subscriptions (teams, threads, tournaments): the room of the record its payload names. */
export function feedSubscriptions(feed: Pick<RoomFeed<unknown>, 'subscribe' | 'payload' | 'room'>): SubscriptionKind {
  return {
    event: feed.subscribe,
    roomOf(payload) {
      const parsed = v.safeParse(feed.payload, payload);
      return parsed.success ? feed.room(parsed.output.id) : null;
    },
    isRoom(room) {
      const id = /\d+$/.exec(room);
      return id !== null && feed.room(Number(id[0])) === room;
    },
  };
}

/**
 * Runs before one socket's handlers: a subscribe of any `kinds` (lobbies and the area feeds,
 * counted together) to a room the socket is not yet in, once it is in `max` such rooms, is
 * answered 429 (and dropped when it asked no answer), and reported to `refused`. Each handler joins its room before its
 * first await, so the count below already holds earlier subscribes.
 */
export function limitSubscriptions(
  socket: Pick<Socket, 'use' | 'rooms'>,
  max: number,
  kinds: readonly SubscriptionKind[],
  refused: RefusedEvent = () => undefined,
): void {
  socket.use(([event, payload, ...rest], next) => {
    const started = performance.now();
    const kind = kinds.find((each) => each.event === event);
    if (!kind || !isOverLimit(socket.rooms, kind.roomOf(payload), max, kinds)) return next();
    const ack = [payload, ...rest].reverse().find((arg) => typeof arg === 'function') as ((answer: AckError) => void) | undefined;
    const refusal = subscriptionRefusal(max);
    ack?.(refusal);
    refused(kind.event, refusal.status, started);
  });
}

export const subscriptionRefusal = (max: number): AckError => ({
  error: `too many subscriptions on this socket (lobbies, teams, threads and tournaments together): at most ${max}; unsubscribe from one first`,
  status: 429,
});

function isOverLimit(rooms: ReadonlySet<string>, room: string | null, max: number, kinds: readonly SubscriptionKind[]): boolean {
  let subscriptions = 0;
  for (const each of rooms) if (kinds.some((kind) => kind.isRoom(each))) subscriptions++;
  if (subscriptions < max) return false;
  // Subscribing again to a room it is in adds nothing.
  return room === null || !rooms.has(room);
}
