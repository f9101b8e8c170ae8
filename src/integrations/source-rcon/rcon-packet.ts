/**
 * Source RCON packets (https://developer.valvesoftware.com/wiki/Source_RCON_Protocol):
 * size:int32le, id:int32le, type:int32le, body (ASCII, NUL-terminated), one empty NUL string.
 * `size` counts everything after itself. Types 2 are shared by EXECCOMMAND and AUTH_RESPONSE;
 * the direction tells them apart.
 */
export const SERVERDATA_AUTH = 3;
export const SERVERDATA_AUTH_RESPONSE = 2;
export const SERVERDATA_EXECCOMMAND = 2;
export const SERVERDATA_RESPONSE_VALUE = 0;

/** srcds splits a long answer into bodies of at most this many bytes. */
export const MAX_BODY_BYTES = 4096;

export interface RconPacket {
  id: number;
  type: number;
  body: string;
}

export function encodeRconPacket(packet: RconPacket): Buffer {
  const body = Buffer.from(packet.body, 'utf8');
  const buffer = Buffer.alloc(body.length + 14);
  buffer.writeInt32LE(body.length + 10, 0);
  buffer.writeInt32LE(packet.id, 4);
  buffer.writeInt32LE(packet.type, 8);
  body.copy(buffer, 12);
  return buffer;
}

/** Reassembles packets from a TCP stream: a packet may arrive in pieces or several in one chunk. */
export class RconPacketReader {
  private pending: Buffer = Buffer.alloc(0);

  /** Largest size field accepted; anything bigger means a broken or hostile peer. */
  constructor(private readonly maxSize = MAX_BODY_BYTES + 10 + 4096) {}

  push(chunk: Buffer): RconPacket[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const packets: RconPacket[] = [];
    while (this.pending.length >= 4) {
      const size = this.pending.readInt32LE(0);
      if (size < 10 || size > this.maxSize) throw new Error(`bad RCON packet size ${size}`);
      if (this.pending.length < size + 4) break;
      const id = this.pending.readInt32LE(4);
      const type = this.pending.readInt32LE(8);
      const bodyEnd = this.pending.indexOf(0, 12);
      const body = this.pending.toString('utf8', 12, bodyEnd >= 12 && bodyEnd < size + 2 ? bodyEnd : size + 2);
      packets.push({ id, type, body });
      this.pending = this.pending.subarray(size + 4);
    }
    return packets;
  }
}

/** Splits an answer into packet bodies of at most MAX_BODY_BYTES bytes, never inside a character. */
export function splitBody(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= MAX_BODY_BYTES) return [text];
  const parts: string[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + MAX_BODY_BYTES, bytes.length);
    // Back off continuation bytes (10xxxxxx) so a multi-byte character stays whole.
    while (end < bytes.length && (bytes[end] & 0xc0) === 0x80) end--;
    parts.push(bytes.toString('utf8', start, end));
    start = end;
  }
  return parts;
}
