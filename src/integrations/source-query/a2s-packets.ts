/**
 * A2S packets of the Source server query protocol
 * (https://developer.valvesoftware.com/wiki/Server_queries), single-packet form (header -1).
 * Since 2020 servers answer a first A2S_INFO with S2C_CHALLENGE (0x41) and expect the request
 * again with the 4-byte challenge appended; A2S_PLAYER always works that way.
 */
export const SIMPLE_HEADER = Buffer.from([0xff, 0xff, 0xff, 0xff]);
export const A2S_INFO = 0x54;
export const A2S_PLAYER = 0x55;
export const S2C_CHALLENGE = 0x41;
export const S2A_INFO = 0x49;
export const S2A_PLAYER = 0x44;
export const INFO_PAYLOAD = 'Source Engine Query\0';
export const NO_CHALLENGE = Buffer.from([0xff, 0xff, 0xff, 0xff]);

export interface ServerInfo {
  name: string;
  map: string;
  folder: string;
  game: string;
  appId: number;
  players: number;
  maxPlayers: number;
  bots: number;
  passworded: boolean;
  version: string;
  port: number;
}

export interface PlayerEntry {
  name: string;
  score: number;
  durationS: number;
}

export class PacketWriter {
  private readonly parts: Buffer[] = [];
  byte(value: number): this {
    this.parts.push(Buffer.from([value & 0xff]));
    return this;
  }
  short(value: number): this {
    const b = Buffer.alloc(2);
    b.writeUInt16LE(value & 0xffff);
    this.parts.push(b);
    return this;
  }
  long(value: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    this.parts.push(b);
    return this;
  }
  float(value: number): this {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.parts.push(b);
    return this;
  }
  string(value: string): this {
    this.parts.push(Buffer.from(`${value}\0`, 'utf8'));
    return this;
  }
  bytes(value: Buffer): this {
    this.parts.push(value);
    return this;
  }
  build(): Buffer {
    return Buffer.concat(this.parts);
  }
}

export class PacketReader {
  private offset = 0;
  constructor(private readonly buffer: Buffer) {}
  byte(): number {
    return this.buffer.readUInt8(this.offset++);
  }
  short(): number {
    const value = this.buffer.readInt16LE(this.offset);
    this.offset += 2;
    return value;
  }
  long(): number {
    const value = this.buffer.readInt32LE(this.offset);
    this.offset += 4;
    return value;
  }
  float(): number {
    const value = this.buffer.readFloatLE(this.offset);
    this.offset += 4;
    return value;
  }
  string(): string {
    const end = this.buffer.indexOf(0, this.offset);
    if (end < 0) throw new Error('unterminated string in A2S packet');
    const value = this.buffer.toString('utf8', this.offset, end);
    this.offset = end + 1;
    return value;
  }
  remaining(): number {
    return this.buffer.length - this.offset;
  }
}

export function encodeInfo(info: ServerInfo): Buffer {
  return new PacketWriter()
    .bytes(SIMPLE_HEADER)
    .byte(S2A_INFO)
    .byte(17)
    .string(info.name)
    .string(info.map)
    .string(info.folder)
    .string(info.game)
    .short(info.appId)
    .byte(info.players)
    .byte(info.maxPlayers)
    .byte(info.bots)
    .byte('d'.charCodeAt(0))
    .byte('l'.charCodeAt(0))
    .byte(info.passworded ? 1 : 0)
    .byte(1)
    .string(info.version)
    .byte(0x80)
    .short(info.port)
    .build();
}

export function decodeInfo(packet: Buffer): ServerInfo {
  const r = new PacketReader(packet.subarray(5));
  r.byte();
  const name = r.string();
  const map = r.string();
  const folder = r.string();
  const game = r.string();
  const appId = r.short();
  const players = r.byte();
  const maxPlayers = r.byte();
  const bots = r.byte();
  r.byte();
  r.byte();
  const passworded = r.byte() === 1;
  r.byte();
  const version = r.string();
  let port = 0;
  if (r.remaining() > 0 && (r.byte() & 0x80) !== 0) port = r.short() & 0xffff;
  return { name, map, folder, game, appId, players, maxPlayers, bots, passworded, version, port };
}

export function encodePlayers(players: readonly PlayerEntry[]): Buffer {
  const w = new PacketWriter().bytes(SIMPLE_HEADER).byte(S2A_PLAYER).byte(players.length);
  players.forEach((p, index) => w.byte(index).string(p.name).long(p.score).float(p.durationS));
  return w.build();
}

export function decodePlayers(packet: Buffer): PlayerEntry[] {
  const r = new PacketReader(packet.subarray(5));
  const count = r.byte();
  const players: PlayerEntry[] = [];
  for (let i = 0; i < count; i++) {
    r.byte();
    players.push({ name: r.string(), score: r.long(), durationS: r.float() });
  }
  return players;
}

export const packetKind = (packet: Buffer): number =>
  packet.length >= 5 && packet.readInt32LE(0) === -1 ? packet[4] : -1;
