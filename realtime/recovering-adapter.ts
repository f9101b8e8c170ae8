import { Adapter, type BroadcastOptions, type PrivateSessionId, type Room, type Session } from 'socket.io-adapter';
import { machineTime } from '../src/clock/machine-time';

/**
 * socket.io's in-memory adapter with connection state recovery, and a cap on what it keeps.
 *
 * Broadcasts never cross instances through socket.io: every instance receives every lobby
 * announcement from the live store's feed, in commit order, and emits it to its own sockets
 * (see src/engine/lobby-broadcast.ts). So each instance's adapter already sees every packet,
 * including those for rooms it has no member in right now (the member that just dropped may be
 * the one coming back), and recovery needs nothing from other instances. socket.io's own
 * SessionAwareAdapter does the same but keeps every packet of the window: at a few thousand
 * updates a second that is gigabytes, hence this one with `maxPackets`.
 *
 * Sessions live in this instance's memory: a client that reconnects to the same instance
 * (websocket-only clients with the usual sticky balancing) is recovered; one that lands elsewhere
 * is not (`socket.recovered` is false) and re-subscribes for a fresh snapshot.
 */
export interface RecoveryOptions {
  maxDisconnectionDuration: number;
  /** Packets kept at most, whatever their age, so a burst cannot grow memory without bound. */
  maxPackets: number;
  /** The uWS app socket.io is attached to: `broadcastJson` publishes on it directly. */
  publish?: (topic: string, message: string) => void;
}

interface StoredPacket {
  id: string;
  /** The offset as a number, for comparing. */
  seq: number;
  /** The event's arguments, or for `broadcastJson` the event name and its payload's JSON, parsed only on replay. */
  data: unknown[] | { event: string; json: string };
  rooms: Set<Room>;
  except: Set<Room>;
  emittedAt: number;
}

interface PacketLike {
  type: number;
  id?: number;
  data: unknown[];
}

interface SocketLike {
  conn: { transport: { name: string; socket?: { subscribe(topic: string): void } }; once(event: 'upgrade', listener: () => void): void };
  client: { writeToEngine(packets: string[], opts: { preEncoded: boolean }): void };
}

/** A socket as `resume` needs it: socket.io's own, whose `packet` sends one event packet to this client. */
interface ResumingSocket extends SocketLike {
  id: string;
  recovered: boolean;
  packet(packet: { type: number; data: unknown[] }): void;
}

/** socket.io on uWS subscribes a websocket to `<namespace>` + this + `<room>` (socket.io/dist/uws.js). */
const TOPIC_SEPARATOR = '\x1f';

type StoredSession = Session & { disconnectedAt: number };

const EVENT = 2;

export function createRecoveringAdapter(recovery: RecoveryOptions) {
  // socket.io calls `new factory(nsp)`: a plain function (not an arrow) that returns the instance.
  return function recoveringAdapter(nsp: unknown) {
    return new RecoveringAdapter(nsp, recovery);
  };
}

export class RecoveringAdapter extends Adapter {
  private readonly sessions = new Map<PrivateSessionId, StoredSession>();
  /** Restored sockets not connected yet: the offset counter when their missed packets were taken. */
  private readonly resuming = new Map<string, { from: number; at: number }>();
  private packets: StoredPacket[] = [];
  private readonly sweeper: NodeJS.Timeout;
  private offsetCounter = 0;

  constructor(
    nsp: unknown,
    private readonly recovery: RecoveryOptions,
  ) {
    super(nsp as ConstructorParameters<typeof Adapter>[0]);
    this.sweeper = setInterval(() => this.sweep(), Math.min(10_000, recovery.maxDisconnectionDuration));
    this.sweeper.unref();
  }

  override broadcast(packet: PacketLike, opts: BroadcastOptions): void {
    if (isStorable(packet, opts)) {
      const id = this.keep({ data: packet.data, rooms: opts.rooms, except: opts.except ?? new Set() });
      // The last argument of a stored event is its offset: the client hands it back on reconnect.
      packet.data.push(id);
    }
    // Adapter.prototype.broadcast, which socket.io on uWS turns into one native publish.
    super.broadcast(packet as Parameters<Adapter['broadcast']>[0], opts);
  }

  /**
   * Emits `event` with a payload that is already JSON text to one room: what socket.io's uWS fast
   * path does for `io.to(room).emit(event, payload)` (one native publish, a loop only for clients
   * still on long-polling), minus parsing the payload only for socket.io to serialise it again.
   * The lobby feed arrives as JSON; at a few thousand updates a second that round trip mattered.
   * Stored for recovery like any broadcast, parsed only if a client comes back for it.
   */
  broadcastJson(room: Room, event: string, json: string): void {
    const publish = this.recovery.publish;
    if (!publish) throw new Error('broadcastJson needs the uWS publish function');
    // Nobody here can get it now or ask for it later (a lobby no socket of this instance watches,
    // whose every update still reaches here through the feed): nothing to publish or keep.
    if (!this.mayBeReplayed(room)) return;
    const id = this.keep({ data: { event, json }, rooms: new Set([room]), except: new Set() });
    // A socket.io EVENT packet of the default namespace: 2[<event>,<payload>,<offset>].
    const encoded = `2[${JSON.stringify(event)},${json},${JSON.stringify(id)}]`;
    publish(`${this.nsp.name}${TOPIC_SEPARATOR}${room}`, `4${encoded}`);
    for (const sid of this.rooms.get(room) ?? []) {
      const socket = this.nsp.sockets.get(sid) as unknown as SocketLike | undefined;
      if (socket && socket.conn.transport.name !== 'websocket') socket.client.writeToEngine([encoded], { preEncoded: true });
    }
  }

  /** One event whose payload is already JSON to one socket, in order with what was published to it (not kept for recovery). */
  sendJson(socketId: string, event: string, json: string): void {
    const socket = this.nsp.sockets.get(socketId) as unknown as SocketLike | undefined;
    socket?.client.writeToEngine([`2[${JSON.stringify(event)},${json}]`], { preEncoded: true });
  }

  override persistSession(session: Session): void {
    this.sessions.set(session.pid, { ...session, disconnectedAt: machineTime.wall() });
  }

  override restoreSession(pid: PrivateSessionId, offset: string): Promise<Session> {
    const session = this.sessions.get(pid);
    this.sessions.delete(pid);
    if (!session || session.disconnectedAt + this.recovery.maxDisconnectionDuration < machineTime.wall()) {
      return Promise.resolve(null as unknown as Session);
    }
    const index = this.packets.findIndex((packet) => packet.id === offset);
    if (index === -1) return Promise.resolve(null as unknown as Session);
    const missedPackets = this.packets
      .slice(index + 1)
      .filter((packet) => reaches(session.rooms, packet))
      .map(replayable);
    const { disconnectedAt: _dropped, ...restored } = session;
    this.resuming.set(session.sid, { from: this.offsetCounter, at: machineTime.wall() });
    return Promise.resolve({ ...restored, missedPackets });
  }

  /**
   * Call on 'connection' with every socket. socket.io rejoins a restored socket's rooms while it
   * constructs it, before the socket can be found by id, so socket.io's uWS patch never
   * subscribes its websocket to the rooms' topics: without this, a client that recovered from a
   * blip would get no broadcast again. Subscribes it now (or at its upgrade to websocket), and
   * sends what was broadcast between taking its missed packets and now, which reached neither.
   */
  resume(socket: ResumingSocket): void {
    const mark = this.resuming.get(socket.id);
    this.resuming.delete(socket.id);
    if (!socket.recovered || mark === undefined) return;
    const rooms = [...(this.sids.get(socket.id) ?? [])];
    const subscribe = () => {
      const websocket = socket.conn.transport.socket;
      for (const topic of [this.nsp.name, ...rooms.map((room) => `${this.nsp.name}${TOPIC_SEPARATOR}${room}`)]) websocket?.subscribe(topic);
    };
    if (socket.conn.transport.name === 'websocket') subscribe();
    else socket.conn.once('upgrade', subscribe);
    for (const packet of this.packets) {
      if (packet.seq >= mark.from && reaches(rooms, packet)) socket.packet({ type: EVENT, data: replayable(packet) });
    }
  }

  override close(): Promise<void> | void {
    clearInterval(this.sweeper);
    return super.close();
  }

  /**
   * Whether a packet to `room` could ever be asked for again: only by a socket in the room now (it
   * may drop and come back), a session kept for recovery, or a socket being restored. With none of
   * them (a lobby nobody on this instance watches, every update of which still reaches here through
   * the feed) keeping its packet only held a few KB for minutes: 20,000 of them were the largest
   * part of the heap, and of the garbage collector's work.
   */
  mayBeReplayed(room: Room): boolean {
    return (this.rooms.get(room)?.size ?? 0) > 0 || this.sessions.size > 0 || this.resuming.size > 0;
  }

  /** Stores a broadcast under the next offset, which it answers (the id the client hands back). */
  private keep(packet: Pick<StoredPacket, 'data' | 'rooms' | 'except'>): string {
    const seq = this.offsetCounter++;
    const id = seq.toString(36);
    this.packets.push({ ...packet, id, seq, emittedAt: machineTime.wall() });
    if (this.packets.length > this.recovery.maxPackets * 1.25) this.packets = this.packets.slice(-this.recovery.maxPackets);
    return id;
  }

  private sweep(): void {
    const threshold = machineTime.wall() - this.recovery.maxDisconnectionDuration;
    for (const [pid, session] of this.sessions) if (session.disconnectedAt < threshold) this.sessions.delete(pid);
    // A restored socket that never connected (its handshake was refused) leaves its mark behind.
    for (const [sid, mark] of this.resuming) if (mark.at < threshold) this.resuming.delete(sid);
    const firstFresh = this.packets.findIndex((packet) => packet.emittedAt >= threshold);
    if (firstFresh === -1) this.packets = [];
    else if (firstFresh > 0) this.packets = this.packets.slice(firstFresh);
  }
}

/** A stored packet as the event arguments a client gets: the payload, then its offset. */
function replayable({ id, data }: StoredPacket): unknown[] {
  return Array.isArray(data) ? data : [data.event, JSON.parse(data.json), id];
}

/** Acknowledged and volatile packets cannot be replayed (the same rule as socket.io's own adapter). */
function isStorable(packet: PacketLike, opts: BroadcastOptions): boolean {
  return packet.type === EVENT && packet.id === undefined && opts.flags?.volatile === undefined;
}

function reaches(sessionRooms: Room[], packet: StoredPacket): boolean {
  const included = packet.rooms.size === 0 || sessionRooms.some((room) => packet.rooms.has(room));
  return included && sessionRooms.every((room) => !packet.except.has(room));
}
