import type { LobbyDetail } from '../schema/lobby';
import type { LobbyPatch, LobbyUpdate } from '../schema/realtime';
import { diffJson } from './json-patch';

/**
 * One instance's delivery of lobby updates to its own watchers, with the two promises of the
 * protocol: after the subscribe ack a watcher gets exactly the versions above its snapshot's, each
 * once, in order (issue 21 §4), and a `patches: true` watcher gets each as a `lobby:patch`
 * computed once here, whatever the number of watchers (issue 28 §1).
 *
 * Three rooms per lobby: `lobby:<code>` (membership: chat, the subscription limit, recovery),
 * `lobby-updates:<code>` and `lobby-patches:<code>` (where updates are published, one native uWS
 * publish each). A subscriber joins the membership room at once but a delivery room only when the
 * feed reaches the version after its snapshot: until then it is "pending" and the updates it
 * already has, or that raced its snapshot read, never reach it. If the feed has already delivered
 * a newer version than the read (the read lost the race), the ack carries that newer snapshot.
 */
export interface FanoutRooms {
  /** How many sockets of this instance are in `room`. */
  size(room: string): number;
  /** Room membership for one socket (the in-memory adapter's, which is synchronous). */
  join(socketId: string, room: string): void;
  leave(socketId: string, room: string): void;
  /** One publish of an event whose payload is already JSON (RecoveringAdapter.broadcastJson). */
  broadcastJson(room: string, event: string, json: string): void;
  /** The same event to one socket. */
  sendJson(socketId: string, event: string, json: string): void;
}

interface Watcher {
  socketId: string;
  /** The version of the snapshot it was acknowledged; it wants the next one. */
  since: number;
  patches: boolean;
}

interface Tracked {
  /** The last version delivered here (null: none since this lobby got a watcher). */
  version: number | null;
  /** That version's `lobby:update` payload as JSON. */
  json: string;
  /** The same, parsed, kept while patch watchers need a base to diff against. */
  detail: LobbyDetail | undefined;
  pending: Map<string, Watcher>;
}

export const lobbyRoom = (code: string) => `lobby:${code}`;
export const updatesRoom = (code: string) => `lobby-updates:${code}`;
export const patchesRoom = (code: string) => `lobby-patches:${code}`;

export class LobbyFanout {
  /** Only lobbies with a watcher here: a lobby nobody watches costs nothing but the publish. */
  readonly #tracked = new Map<string, Tracked>();

  constructor(private readonly rooms: FanoutRooms) {}

  /**
   * Call with the snapshot just read, after joining the membership room and before anything else
   * runs (in the same turn as the ack): answers the snapshot to acknowledge (a newer one than
   * `snapshot` if the feed got there first), and from then on the socket gets what follows it.
   */
  watch(socketId: string, snapshot: LobbyDetail, patches: boolean): LobbyDetail {
    const code = snapshot.code;
    this.stop(socketId, code);
    const tracked = this.#track(code);
    let lobby = snapshot;
    if (tracked.version === null) {
      // Nothing delivered here since the lobby got its first watcher: the snapshot is the base the
      // next update's patch is diffed from (rather than a whole lobby for the first change).
      Object.assign(tracked, { version: snapshot.version, json: JSON.stringify({ code, version: snapshot.version, lobby: snapshot }), detail: snapshot });
    } else if (tracked.version > snapshot.version) lobby = tracked.detail ?? (JSON.parse(tracked.json) as LobbyUpdate).lobby;
    tracked.pending.set(socketId, { socketId, since: lobby.version, patches });
    return lobby;
  }

  /** Stops deliveries of `code` to the socket (unsubscribe, or a subscribe again that starts over). */
  stop(socketId: string, code: string): void {
    this.#tracked.get(code)?.pending.delete(socketId);
    this.rooms.leave(socketId, updatesRoom(code));
    this.rooms.leave(socketId, patchesRoom(code));
  }

  /**
   * The socket is going away: forgets it as pending, but leaves its rooms to socket.io, which keeps
   * them for connection-state recovery.
   */
  dropped(socketId: string, code: string): void {
    this.#tracked.get(code)?.pending.delete(socketId);
  }

  /**
   * The last version of each lobby in `rooms` (a socket's), again as a whole `lobby:update`, to a
   * socket that may have had frames skipped (see backpressure-watch.ts), marked `reannounced`:
   * one that did not sees a version it holds, one that did sees a newer one, which tells it to resync, whether or not
   * another update ever comes.
   */
  reannounce(socketId: string, rooms: Iterable<string>): void {
    for (const room of rooms) {
      const code = room.startsWith(updatesRoom('')) ? room.slice(updatesRoom('').length) : room.startsWith(patchesRoom('')) ? room.slice(patchesRoom('').length) : null;
      const tracked = code === null ? undefined : this.#tracked.get(code);
      // Marked, so that a client (and a test) can tell it from a delivery of a version twice.
      if (tracked?.version != null) this.rooms.sendJson(socketId, 'lobby:update', `${tracked.json.slice(0, -1)},"reannounced":true}`);
    }
  }

  /** Whether a socket of this instance watches the lobby (its membership room, joined before the snapshot). */
  watched(code: string): boolean {
    return this.rooms.size(lobbyRoom(code)) > 0;
  }

  /** The membership room emptied (the last watcher left or dropped). */
  forget(code: string): void {
    this.#tracked.delete(code);
  }

  /** One feed update, in feed order: to the pending watchers it is the next version for, then to both rooms. */
  update(code: string, version: number, json: string): void {
    const tracked = this.watched(code) ? this.#track(code) : undefined;
    if (!tracked) this.#tracked.delete(code);
    const follows = tracked?.version != null && version === tracked.version + 1;
    for (const watcher of tracked?.pending.values() ?? []) {
      if (version <= watcher.since) continue; // it has this one (its snapshot, or older)
      tracked!.pending.delete(watcher.socketId);
      this.rooms.join(watcher.socketId, watcher.patches ? patchesRoom(code) : updatesRoom(code));
    }
    // Always published, watched or not: a watcher that dropped may come back for it (recovery).
    this.rooms.broadcastJson(updatesRoom(code), 'lobby:update', json);
    // Older than the base taken from a snapshot (it raced that read): no watcher here wants it.
    if (!tracked || (tracked.version !== null && version <= tracked.version)) return;
    if (this.rooms.size(patchesRoom(code)) > 0) {
      const detail = (JSON.parse(json) as LobbyUpdate).lobby;
      if (follows) {
        const base = tracked.detail ?? (JSON.parse(tracked.json) as LobbyUpdate).lobby;
        const patch: LobbyPatch = { code, version, base_version: version - 1, ops: diffJson(base, detail) };
        this.rooms.broadcastJson(patchesRoom(code), 'lobby:patch', JSON.stringify(patch));
      } else {
        // No base this instance can vouch for (its first update of the lobby, or the feed skipped one).
        this.rooms.broadcastJson(patchesRoom(code), 'lobby:update', json);
      }
      tracked.detail = detail;
    } else tracked.detail = undefined;
    tracked.version = version;
    tracked.json = json;
  }

  #track(code: string): Tracked {
    let tracked = this.#tracked.get(code);
    if (!tracked) this.#tracked.set(code, (tracked = { version: null, json: '', detail: undefined, pending: new Map() }));
    return tracked;
  }
}
