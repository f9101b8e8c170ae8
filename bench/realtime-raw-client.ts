import WebSocket from 'ws';

/**
 * A minimal socket.io v4 client over a bare websocket, for load generation: thousands of them
 * fit in one process, and a received event is handed over as its raw text (no JSON parse), so
 * the figures measure the server rather than the client. Speaks just enough of the protocol:
 * engine.io open/ping/pong, namespace connect, events and acknowledgements.
 */
export class RawSocketIoClient {
  onEvent: (text: string, receivedAt: number) => void = () => undefined;
  private readonly pending = new Map<number, (payload: unknown) => void>();
  private nextAckId = 0;

  private constructor(private readonly ws: WebSocket) {}

  static connect(url: string, options: { cookie?: string; auth?: Record<string, unknown> } = {}): Promise<RawSocketIoClient> {
    const wsUrl = `${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;
    const ws = new WebSocket(wsUrl, { headers: options.cookie ? { cookie: options.cookie } : {}, perMessageDeflate: false });
    const client = new RawSocketIoClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('error', reject);
      ws.on('message', (data: Buffer) => {
        const text = data.toString();
        switch (text[0]) {
          case '0': // engine.io open: join the default namespace
            ws.send(options.auth ? `40${JSON.stringify(options.auth)}` : '40');
            return;
          case '2': // engine.io ping
            ws.send('3');
            return;
          case '4':
            client.onMessage(text, resolve, reject);
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

  private onMessage(text: string, connected: (client: RawSocketIoClient) => void, refused: (error: Error) => void): void {
    const receivedAt = performance.timeOrigin + performance.now();
    switch (text[1]) {
      case '0':
        connected(this);
        return;
      case '4':
        refused(new Error(`connection refused: ${text.slice(2)}`));
        return;
      case '2':
        this.onEvent(text, receivedAt);
        return;
      case '3': {
        const open = text.indexOf('[');
        const id = Number(text.slice(2, open));
        const answer = (JSON.parse(text.slice(open)) as unknown[])[0];
        this.pending.get(id)?.(answer);
        this.pending.delete(id);
        return;
      }
    }
  }
}

/** The outer `version` of a `lobby:update` frame (`42["lobby:update",{"code":..,"version":N,...`), or null. */
export function updateVersion(text: string): number | null {
  if (!text.startsWith('42["lobby:update"')) return null;
  const match = /"version":(\d+)/.exec(text);
  return match ? Number(match[1]) : null;
}
