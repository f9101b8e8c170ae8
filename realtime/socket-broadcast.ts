import type { Server } from 'socket.io';
import type { ServerToClientEvents } from '../schema/realtime';
import type { LobbyBroadcast } from '../src/engine/lobby-broadcast';
import { BurstDelivery } from './burst-delivery';
import { LobbyFanout, lobbyRoom, updatesRoom } from './lobby-fanout';
import type { RecoveringAdapter } from './recovering-adapter';

export const LOBBIES_ROOM = 'lobbies';

/**
 * The most a busy feed waits to be sent together (see BurstDelivery: a feed is busy when its last
 * burst carried more than one message); a light one does not wait. Each burst costs every watching
 * socket one send, the kernel's loopback path most of a fan-out's time: with 5 ms a chat line into
 * a lobby of 500 watchers cost 1.4-1.9 ms of server CPU and chat was fully delivered at 0.26-0.43x
 * the bare broadcast's rate; with 20 ms, 0.6-1.0 ms and 0.57-0.64x (`npm run bench -- lobby-chat`).
 * A light feed's updates still reach their last watcher within 1.04-1.10x the bare broadcast's p99
 * (`realtime-fanout`, 50 commands a second); a fixed 20 ms window had made that 1.2-1.9x.
 */
export const FEED_BURST_MS = 20;

/**
 * How long one turn of the loop may spend sending the feed, and how much of it may wait (see
 * BurstLimits). A lobby update to 500 watchers costs about half a millisecond of publishing, so a
 * turn sends a few dozen; an instance that cannot keep up with the feed (two instances, one lobby
 * changing thousands of times a second) keeps a lobby's newest update and drops the older ones
 * still waiting: its watchers see the version jump and resync, as they would when uWS drops a
 * send for a socket too far behind. What waits bounds how late a watcher may be: 1,000 sends at
 * the few hundred a second a saturated instance makes is a second or two. 10,000 let a 5 s
 * saturation through without a gap, but after 40 s left watchers 13-23 s behind (1,000: 0.3-3 s).
 * Measured with `npm run bench -- realtime-fanout-redis` and `BENCH_SECONDS=40`, docs/benchmarks.md.
 */
export const FEED_TURN_MS = 10;
export const FEED_MAX_PENDING = 1_000;

/** One send of the feed queue; an update or a list may be superseded by a newer one of the same key. */
export interface FeedSend {
  /** `update:<code>` or `list`: a later send with the same key makes this one redundant; null: never (chat). */
  supersededBy: string | null;
  send(): void;
}

/** The sends still worth making: every chat line, the newest update of each lobby, the newest list. */
export function newestSends(pending: FeedSend[]): FeedSend[] {
  const newest = new Map<string, FeedSend>();
  for (const item of pending) if (item.supersededBy !== null) newest.set(item.supersededBy, item);
  return pending.filter((item) => item.supersededBy === null || newest.get(item.supersededBy) === item);
}

export interface SocketBroadcast extends LobbyBroadcast {
  /** Who gets which lobby update: the subscribe handler registers its watchers here. */
  fanout: LobbyFanout;
  /** Sends what is still queued; for shutdown. */
  flush(): void;
}

/**
 * The lobby feed's announcements as room broadcasts to this instance's sockets (every instance
 * receives the feed). Each is one native uWS publish to one room (RecoveringAdapter.broadcastJson:
 * socket.io on uWS turns exactly `io.local.to(oneRoom)` into one publish, and a payload that came
 * as JSON is sent as it came). Updates go through LobbyFanout (snapshot order, patches). Every kind
 * goes through one queue, delivered in bursts, so the order of the feed is the order of the sends.
 */
export function socketBroadcast(io: Pick<Server<never, ServerToClientEvents>, 'local' | 'of'>, burstMs = FEED_BURST_MS): SocketBroadcast {
  const adapter = io.of('/').adapter as unknown as RecoveringAdapter;
  const fanout = new LobbyFanout({
    size: (room) => adapter.rooms.get(room)?.size ?? 0,
    // The adapter's own calls, which socket.io on uWS patches to (un)subscribe the websocket's topic.
    join: (socketId, room) => void adapter.addAll(socketId, new Set([room])),
    leave: (socketId, room) => void adapter.del(socketId, room),
    broadcastJson: (room, event, json) => adapter.broadcastJson(room, event, json),
    sendJson: (socketId, event, json) => adapter.sendJson(socketId, event, json),
  });
  adapter.on('delete-room', (room: string) => {
    if (room.startsWith(lobbyRoom(''))) fanout.forget(room.slice(lobbyRoom('').length));
  });
  const burst = new BurstDelivery<FeedSend>((item) => item.send(), burstMs, undefined, {
    turnMs: FEED_TURN_MS,
    maxPending: FEED_MAX_PENDING,
    compact: newestSends,
  });
  const eventJson = (code: string, event: 'lobby:update' | 'lobby:chat', json: string, version: number) =>
    burst.push(
      event === 'lobby:chat'
        ? { supersededBy: null, send: () => adapter.broadcastJson(lobbyRoom(code), event, json) }
        : { supersededBy: `update:${code}`, send: () => fanout.update(code, version, json) },
    );
  return {
    fanout,
    lobbyUpdated: (code, version, lobby) => eventJson(code, 'lobby:update', JSON.stringify({ code, version, lobby }), version),
    lobbyChat: (code, message) => eventJson(code, 'lobby:chat', JSON.stringify({ code, message }), 0),
    lobbiesChanged: (lobbies) => burst.push({ supersededBy: 'list', send: () => void io.local.to(LOBBIES_ROOM).emit('lobbies:update', { lobbies }) }),
    lobbyEventJson: eventJson,
    // A socket watching the lobby (its updates or patches), or a packet someone may ask for again.
    wantsUpdate: (code) => fanout.watched(code) || adapter.mayBeReplayed(updatesRoom(code)),
    flush: () => burst.flush(),
  };
}
