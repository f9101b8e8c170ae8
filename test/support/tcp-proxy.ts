import { createServer, connect, type Socket } from 'node:net';

/**
 * A TCP proxy of the test's own in front of a service (Postgres): `silence()` stops forwarding in
 * both directions while every connection stays open (a database that hangs, not one that is
 * down); `restore()` forwards again what was held. Fault tests never touch the machine's services.
 */
export interface TcpProxy {
  port: number;
  /** The target URL with its host and port replaced by the proxy's. */
  url: string;
  silence(): void;
  /** A database that is down: every connection is cut and new ones are closed as they arrive. */
  refuse(): void;
  /** Forwards again (after `silence` or `refuse`). */
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const pairs = new Set<[Socket, Socket]>();
  /** What arrived while silent, per destination socket, in order. */
  const held = new Map<Socket, Buffer[]>();
  let silent = false;
  let refusing = false;
  const forward = (from: Socket, to: Socket) =>
    from.on('data', (chunk: Buffer) => {
      if (silent) held.set(to, [...(held.get(to) ?? []), chunk]);
      else to.write(chunk);
    });
  const server = createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = connect(Number(target.port || 5432), target.hostname);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    forward(client, upstream);
    forward(upstream, client);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    port,
    url: url.toString(),
    silence() {
      silent = true;
    },
    refuse() {
      refusing = true;
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
    },
    restore() {
      refusing = false;
      silent = false;
      for (const [socket, chunks] of held) if (!socket.destroyed) for (const chunk of chunks) socket.write(chunk);
      held.clear();
    },
    async close() {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
