import net from 'node:net';

/** What came back on one raw TCP connection, and how it ended. */
export interface RawOutcome {
  /** Everything the server sent, as latin1 text. */
  text: string;
  /** The server closed (FIN) or reset the connection within the wait. */
  ended: 'closed' | 'reset' | 'open';
}

/**
 * Writes `request` as is on a fresh TCP connection and collects what the server sends until it
 * closes or `waitMs` of silence pass: for framing a real HTTP client would not produce.
 */
export function rawExchange(port: number, request: string | Buffer, waitMs = 1_000): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    let settled = false;
    let timer = setTimeout(() => finish('open'), waitMs);
    const finish = (ended: RawOutcome['ended']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, ended });
    };
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      clearTimeout(timer);
      timer = setTimeout(() => finish('open'), waitMs);
    });
    socket.on('end', () => finish('closed'));
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code === 'ECONNRESET' ? 'reset' : 'closed'));
  });
}

export interface RawResponse {
  status: number;
  headers: Array<[string, string]>;
  body: string;
  header(name: string): string | undefined;
}

/** Splits a byte stream into HTTP/1.1 responses by their Content-Length, as a client does. */
export function parseResponses(text: string, heads: boolean[] = []): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`an incomplete response head: ${JSON.stringify(rest.slice(0, 200))}`);
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const match = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine);
    if (!match) throw new Error(`not a status line (mis-framed stream?): ${JSON.stringify(statusLine.slice(0, 200))}`);
    const headers = lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as [string, string];
    });
    const header = (name: string) => headers.find(([key]) => key === name)?.[1];
    const head = heads[responses.length] ?? false;
    const length = head ? 0 : Number(header('content-length') ?? 0);
    const body = rest.slice(end + 4, end + 4 + length);
    responses.push({ status: Number(match[1]), headers, body, header });
    rest = rest.slice(end + 4 + length);
  }
  return responses;
}

/**
 * One keep-alive connection, used as a client uses it: a request, then its whole response, then
 * the next request on the same connection.
 */
export class KeepAliveConnection {
  private buffered = '';
  private waiting: (() => void) | null = null;
  private closed = false;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk) => {
      this.buffered += chunk.toString('latin1');
      this.waiting?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiting?.();
    });
  }

  static open(port: number): Promise<KeepAliveConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new KeepAliveConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends one request and reads exactly one response off the stream (no body for HEAD). */
  async exchange(request: string, head = false): Promise<RawResponse> {
    this.socket.write(request);
    for (;;) {
      const end = this.buffered.indexOf('\r\n\r\n');
      if (end >= 0) {
        const [response] = parseResponses(this.buffered.slice(0, end + 4), [true]);
        const length = head ? 0 : Number(response.header('content-length') ?? 0);
        if (this.buffered.length >= end + 4 + length) {
          const whole = this.buffered.slice(0, end + 4 + length);
          this.buffered = this.buffered.slice(end + 4 + length);
          return parseResponses(whole, [head])[0];
        }
      }
      if (this.closed) throw new Error(`connection closed mid-response: ${JSON.stringify(this.buffered.slice(0, 200))}`);
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = null;
    }
  }

  /** Bytes that arrived beyond the responses read so far (a mis-framed body would show here). */
  leftover(): string {
    return this.buffered;
  }

  /** Resolves once the server has closed the connection (after a `Connection: close` answer). */
  whenClosed(): Promise<void> {
    return this.closed ? Promise.resolve() : new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  close(): void {
    this.socket.destroy();
  }
}
