import { randomBytes } from 'node:crypto';
import { RedisAdapter, type RedisAdapterOptions } from '@socket.io/redis-adapter';
import type { BroadcastOptions, PrivateSessionId, Room, Session } from 'socket.io-adapter';

/**
 * The classic Redis adapter (pub/sub) with connection state recovery added.
 *
 * @socket.io/redis-adapter 8.3 inherits the no-op `persistSession`/`restoreSession` of the base
 * adapter (socket.io's docs list it as not supporting recovery; only the Redis Streams adapter,
 * not installed here, does), so a reconnecting client would silently miss what was sent while it
 * was away. This subclass does what socket.io's in-memory SessionAwareAdapter does, over Redis:
 *
 * - the instance that emits appends an offset to every storable event before it is published,
 *   so every instance sees the same offset for the same packet;
 * - every instance keeps the packets of the recovery window, including those from other
 *   instances and for rooms it has no member in right now (the member that just dropped may
 *   be the one coming back);
 * - sessions are kept in this instance's memory: a client that reconnects to the same instance
 *   (websocket-only clients with the usual sticky balancing) is recovered; one that lands
 *   elsewhere is not (`socket.recovered` is false) and re-subscribes for a fresh snapshot.
 *
 * Relies on RedisAdapter 8.3 internals (`channel`, `uid`, `parser`, `onmessage`), pinned by the
 * multi-instance recovery test in test/realtime.
 */
export interface RecoveryOptions {
  maxDisconnectionDuration: number;
  /** Packets kept at most, whatever their age, so a burst cannot grow memory without bound. */
  maxPackets: number;
}

interface StoredPacket {
  id: string;
  data: unknown[];
  rooms: Set<Room>;
  except: Set<Room>;
  emittedAt: number;
}

interface PacketLike {
  type: number;
  id?: number;
  nsp?: string;
  data: unknown[];
}

type StoredSession = Session & { disconnectedAt: number };

/** What RedisAdapter keeps private but this subclass must read (8.3 field names). */
interface RedisAdapterInternals {
  channel: string;
  uid: string;
  parser: { decode(message: Buffer): [string, PacketLike, { rooms: Room[]; except: Room[]; flags?: BroadcastOptions['flags'] }] };
  hasRoom(room: string): boolean;
  onmessage(pattern: unknown, channel: string | Buffer, message: Buffer): void;
}

const EVENT = 2;

export function createRecoveringRedisAdapter(
  pubClient: unknown,
  subClient: unknown,
  options: Partial<RedisAdapterOptions>,
  recovery: RecoveryOptions,
) {
  // socket.io calls `new factory(nsp)`: a plain function (not an arrow) that returns the instance.
  return function recoveringRedisAdapter(nsp: unknown) {
    return new RecoveringRedisAdapter(nsp, pubClient, subClient, options, recovery);
  };
}

export class RecoveringRedisAdapter extends RedisAdapter {
  private readonly sessions = new Map<PrivateSessionId, StoredSession>();
  private packets: StoredPacket[] = [];
  private readonly sweeper: NodeJS.Timeout;
  private offsetCounter = 0;
  private readonly offsetPrefix = randomBytes(6).toString('base64url');

  constructor(
    nsp: unknown,
    pubClient: unknown,
    subClient: unknown,
    options: Partial<RedisAdapterOptions>,
    private readonly recovery: RecoveryOptions,
  ) {
    super(nsp, pubClient, subClient, options);
    // The subscription listener calls `this.onmessage(...)` at delivery time, so an own property wins.
    (this as unknown as RedisAdapterInternals).onmessage = (_pattern, channel, message) => this.onRemoteMessage(channel, message);
    this.sweeper = setInterval(() => this.sweep(), Math.min(10_000, recovery.maxDisconnectionDuration));
    this.sweeper.unref();
  }

  override broadcast(packet: PacketLike, opts: BroadcastOptions): void {
    if (isStorable(packet, opts)) {
      const id = `${this.offsetPrefix}.${(this.offsetCounter++).toString(36)}`;
      packet.data.push(id);
      this.store(id, packet.data, opts.rooms, opts.except ?? new Set());
    }
    super.broadcast(packet, opts);
  }

  override persistSession(session: Session): void {
    this.sessions.set(session.pid, { ...session, disconnectedAt: Date.now() });
  }

  override restoreSession(pid: PrivateSessionId, offset: string): Promise<Session> {
    const session = this.sessions.get(pid);
    this.sessions.delete(pid);
    if (!session || session.disconnectedAt + this.recovery.maxDisconnectionDuration < Date.now()) {
      return Promise.resolve(null as unknown as Session);
    }
    const index = this.packets.findIndex((packet) => packet.id === offset);
    if (index === -1) return Promise.resolve(null as unknown as Session);
    const missedPackets = this.packets
      .slice(index + 1)
      .filter((packet) => reaches(session.rooms, packet))
      .map((packet) => packet.data);
    const { disconnectedAt: _dropped, ...restored } = session;
    return Promise.resolve({ ...restored, missedPackets });
  }

  override close(): Promise<void> | void {
    clearInterval(this.sweeper);
    return super.close();
  }

  /** RedisAdapter 8.3's `onmessage`, plus storing the packet even when no local socket is in its room. */
  private onRemoteMessage(channelName: string | Buffer, message: Buffer): void {
    const self = this as unknown as RedisAdapterInternals;
    const channel = channelName.toString();
    if (!channel.startsWith(self.channel)) return;
    const room = channel.slice(self.channel.length, -1);
    const [uid, packet, rawOpts] = self.parser.decode(message);
    if (uid === self.uid || !packet) return;
    packet.nsp ??= '/';
    if (packet.nsp !== this.nsp.name) return;
    const opts: BroadcastOptions = { rooms: new Set(rawOpts.rooms), except: new Set(rawOpts.except), flags: rawOpts.flags };
    // The emitting instance appended the offset under the same rule, so the last element is it.
    if (isStorable(packet, opts)) this.store(String(packet.data[packet.data.length - 1]), packet.data, opts.rooms, opts.except ?? new Set());
    if (room !== '' && !self.hasRoom(room)) return;
    // Straight to the base broadcast (uWS-patched: one native publish), not back out to Redis.
    const base = Object.getPrototypeOf(RedisAdapter.prototype) as { broadcast(packet: PacketLike, opts: BroadcastOptions): void };
    base.broadcast.call(this, packet, opts);
  }

  private store(id: string, data: unknown[], rooms: Set<Room>, except: Set<Room>): void {
    this.packets.push({ id, data, rooms, except, emittedAt: Date.now() });
    if (this.packets.length > this.recovery.maxPackets * 1.25) this.packets = this.packets.slice(-this.recovery.maxPackets);
  }

  private sweep(): void {
    const threshold = Date.now() - this.recovery.maxDisconnectionDuration;
    for (const [pid, session] of this.sessions) if (session.disconnectedAt < threshold) this.sessions.delete(pid);
    const firstFresh = this.packets.findIndex((packet) => packet.emittedAt >= threshold);
    if (firstFresh === -1) this.packets = [];
    else if (firstFresh > 0) this.packets = this.packets.slice(firstFresh);
  }
}

/** Acknowledged and volatile packets cannot be replayed (the same rule as socket.io's own adapter). */
function isStorable(packet: PacketLike, opts: BroadcastOptions): boolean {
  return packet.type === EVENT && packet.id === undefined && opts.flags?.volatile === undefined;
}

function reaches(sessionRooms: Room[], packet: StoredPacket): boolean {
  const included = packet.rooms.size === 0 || sessionRooms.some((room) => packet.rooms.has(room));
  return included && sessionRooms.every((room) => !packet.except.has(room));
}
