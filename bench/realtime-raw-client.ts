import WebSocket from 'ws';

/**
 * A minimal socket.io v4 client over a bare websocket, for load generation: thousands of them
 * fit in one process, and a received event is handed over as its raw bytes (no decoding, no JSON
 * parse), so the figures measure the server rather than the client. Speaks just enough of the
 * protocol: engine.io open/ping/pong, namespace connect, events and acknowledgements.
 */
export class RawSocketIoClient {
  onEvent: (frame: Buffer, receivedAt: number) => void = () => undefined;
  private readonly pending = new Map<number, (payload: unknown) => void>();
  private nextAckId = 0;

  private constructor(private readonly ws: WebSocket) {}

  static connect(url: string, options: { cookie?: string; auth?: Record<string, unknown> } = {}): Promise<RawSocketIoClient> {
    const wsUrl = `${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;
    const ws = new WebSocket(wsUrl, {
      headers: options.cookie ? { cookie: options.cookie } : {},
      perMessageDeflate: false,
      skipUTF8Validation: true,
    });
    const client = new RawSocketIoClient(ws);
    return new Promise((resolve, reject) => {
      ws.on('error', reject);
      ws.on('message', (data: Buffer) => {
        const receivedAt = performance.timeOrigin + performance.now();
        switch (data[0]) {
          case 0x30: // '0' engine.io open: join the default namespace
            ws.send(options.auth ? `40${JSON.stringify(options.auth)}` : '40');
            return;
          case 0x32: // '2' engine.io ping
            ws.send('3');
            return;
          case 0x34: // '4' engine.io message carrying a socket.io packet
            client.onPacket(data, receivedAt, resolve, reject);
            return;
        }
      });
    });
  }

  emitWithAck(event: string, ...args: unknown[]): Promise<unknown> {
    const id = this.nextAckId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.ws.send(`42${id}${JSON.stringify([event, ...args])}`);
    });
  }

  close(): void {
    this.ws.terminate();
  }

  private onPacket(data: Buffer, receivedAt: number, connected: (client: RawSocketIoClient) => void, refused: (error: Error) => void): void {
    switch (data[1]) {
      case 0x30: // '0' namespace connected
        connected(this);
        return;
      case 0x34: // '4' connect error
        refused(new Error(`connection refused: ${data.toString().slice(2)}`));
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

const UPDATE_PREFIX = Buffer.from('42["lobby:update"');
const VERSION_KEY = Buffer.from('"version":');

/** The outer `version` of a `lobby:update` frame (`42["lobby:update",{"code":..,"version":N,...`), or null. */
export function updateVersion(frame: Buffer): number | null {
  if (frame.compare(UPDATE_PREFIX, 0, UPDATE_PREFIX.length, 0, UPDATE_PREFIX.length) !== 0) return null;
  let at = frame.indexOf(VERSION_KEY);
  if (at < 0) return null;
  at += VERSION_KEY.length;
  let version = 0;
  for (; at < frame.length && frame[at] >= 0x30 && frame[at] <= 0x39; at++) version = version * 10 + frame[at] - 0x30;
  return version;
}
