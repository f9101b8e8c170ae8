import { createHash, randomBytes } from 'node:crypto';
import { connect as connectTcp, type Socket } from 'node:net';

/**
 * A minimal socket.io v4 client speaking RFC 6455 straight over a TCP socket, for load
 * generation. The `ws` library spent tens of microseconds of client CPU per received message,
 * which on a 2-core machine showed up in "time to the last of 500 deliveries" as the client's
 * cost, not the server's. Here a received frame is sliced out of the TCP chunk and handed over
 * as raw bytes (no decoding, no JSON parse), so the figures measure the server. Speaks just
 * enough: the upgrade (accept key checked), masked client frames, websocket ping/close,
 * engine.io open/ping/pong, namespace connect, events and acknowledgements.
 */
export class RawSocketIoClient {
  onEvent: (frame: Buffer, receivedAt: number) => void = () => undefined;
  /** The connection ended without `close()` (the server closed it, or it broke); unanswered acks never will be. */
  onClose: () => void = () => undefined;
  private closing = false;
  private readonly pending = new Map<number, (payload: unknown) => void>();
  private nextAckId = 0;
  private partial: Buffer | null = null;
  private connected: ((client: RawSocketIoClient) => void) | null = null;
  private refused: ((error: Error) => void) | null = null;
  private auth: Record<string, unknown> | undefined;

  private constructor(private readonly socket: Socket) {}

  static connect(url: string, options: { cookie?: string; auth?: Record<string, unknown> } = {}): Promise<RawSocketIoClient> {
    const { hostname, port } = new URL(url);
    const socket = connectTcp({ host: hostname, port: Number(port), noDelay: true });
    const client = new RawSocketIoClient(socket);
    const key = randomBytes(16).toString('base64');
    return new Promise((resolve, reject) => {
      client.connected = resolve;
      client.refused = reject;
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.write(
          `GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
            `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n` +
            (options.cookie ? `Cookie: ${options.cookie}\r\n` : '') +
            '\r\n',
        );
      });
      let head = Buffer.alloc(0);
      const onHandshake = (chunk: Buffer) => {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        socket.off('data', onHandshake);
        const response = head.subarray(0, end).toString();
        const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
        if (!response.startsWith('HTTP/1.1 101') || !response.toLowerCase().includes(`sec-websocket-accept: ${accept.toLowerCase()}`)) {
          socket.destroy();
          reject(new Error(`websocket upgrade refused: ${response.split('\r\n')[0]}`));
          return;
        }
        client.auth = options.auth;
        socket.on('data', (bytes: Buffer) => client.onBytes(bytes));
        socket.once('close', () => {
          if (!client.closing) client.onClose();
        });
        if (head.length > end + 4) client.onBytes(head.subarray(end + 4));
      };
      socket.on('data', onHandshake);
    });
  }

  emitWithAck(event: string, ...args: unknown[]): Promise<unknown> {
    const id = this.nextAckId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.send(`42${id}${JSON.stringify([event, ...args])}`);
    });
  }

  close(): void {
    this.closing = true;
    this.socket.destroy();
  }

  private send(text: string, opcode = 0x1): void {
    this.socket.write(maskedFrame(opcode, Buffer.from(text)));
  }

  /** Slices whole frames out of the stream; a frame split across chunks waits in `partial`. */
  private onBytes(chunk: Buffer): void {
    const receivedAt = performance.timeOrigin + performance.now();
    const data = this.partial ? Buffer.concat([this.partial, chunk]) : chunk;
    let at = 0;
    while (data.length - at >= 2) {
      const opcode = data[at] & 0x0f;
      let length = data[at + 1] & 0x7f;
      let header = 2;
      if (length === 126) {
        if (data.length - at < 4) break;
        length = data.readUInt16BE(at + 2);
        header = 4;
      } else if (length === 127) {
        if (data.length - at < 10) break;
        length = Number(data.readBigUInt64BE(at + 2));
        header = 10;
      }
      if (data.length - at < header + length) break;
      const payload = data.subarray(at + header, at + header + length);
      at += header + length;
      this.onFrame(opcode, payload, receivedAt);
    }
    this.partial = at < data.length ? Buffer.from(data.subarray(at)) : null;
  }

  private onFrame(opcode: number, payload: Buffer, receivedAt: number): void {
    if (opcode === 0x9) return void this.socket.write(maskedFrame(0xa, payload)); // websocket ping
    if (opcode === 0x8) return void this.socket.destroy();
    if (opcode !== 0x1) return;
    switch (payload[0]) {
      case 0x30: // '0' engine.io open: join the default namespace
        return this.send(this.auth ? `40${JSON.stringify(this.auth)}` : '40');
      case 0x32: // '2' engine.io ping
        return this.send('3');
      case 0x34: // '4' engine.io message carrying a socket.io packet
        return this.onPacket(payload, receivedAt);
    }
  }

  private onPacket(data: Buffer, receivedAt: number): void {
    switch (data[1]) {
      case 0x30: // '0' namespace connected
        this.connected?.(this);
        return;
      case 0x34: // '4' connect error
        this.refused?.(new Error(`connection refused: ${data.toString().slice(2)}`));
        return;
      case 0x32: // '2' event
        this.onEvent(data, receivedAt);
        return;
      case 0x33: {
        // '3' acknowledgement: 43<id>[answer]
        const text = data.toString();
        const open = text.indexOf('[');
        const id = Number(text.slice(2, open));
        this.pending.get(id)?.((JSON.parse(text.slice(open)) as unknown[])[0]);
        this.pending.delete(id);
        return;
      }
    }
  }
}

/** A client-to-server frame: FIN set, masked with a random key as RFC 6455 requires. */
function maskedFrame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + 4 + length);
  frame[0] = 0x80 | opcode;
  if (length < 126) frame[1] = 0x80 | length;
  else if (length < 65_536) {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 0x80 | 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  const mask = randomBytes(4);
  mask.copy(frame, header);
  for (let i = 0; i < length; i++) frame[header + 4 + i] = payload[i] ^ mask[i & 3];
  return frame;
}

const UPDATE_PREFIX = Buffer.from('42["lobby:update"');
const PATCH_PREFIX = Buffer.from('42["lobby:patch"');
const CHAT_PREFIX = Buffer.from('42["lobby:chat"');

const startsWith = (frame: Buffer, prefix: Buffer) => frame.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;

/** Whether a frame is a `lobby:chat` event. */
export function isChatFrame(frame: Buffer): boolean {
  return startsWith(frame, CHAT_PREFIX);
}
const VERSION_KEY = Buffer.from('"version":');
const BASE_KEY = Buffer.from('"base_version":');

/**
 * The outer `version` of a `lobby:update` or `lobby:patch` frame (`42["lobby:update",{"code":..,"version":N,...`),
 * or null for any other frame.
 */
export function updateVersion(frame: Buffer): number | null {
  if (!startsWith(frame, UPDATE_PREFIX) && !startsWith(frame, PATCH_PREFIX)) return null;
  return numberAfter(frame, VERSION_KEY);
}

/** The `base_version` of a `lobby:patch` frame; null for a whole `lobby:update`, which follows on from anything older. */
export function patchBase(frame: Buffer): number | null {
  return startsWith(frame, PATCH_PREFIX) ? numberAfter(frame, BASE_KEY) : null;
}

function numberAfter(frame: Buffer, key: Buffer): number | null {
  let at = frame.indexOf(key);
  if (at < 0) return null;
  at += key.length;
  let value = 0;
  for (; at < frame.length && frame[at] >= 0x30 && frame[at] <= 0x39; at++) value = value * 10 + frame[at] - 0x30;
  return value;
}
