/**
 * The baseline of the realtime benchmarks, in its own process: socket.io attached to a bare uWS
 * app with no lobby engine, no REST app and no credentials. `lobby:subscribe` joins the room;
 * `POST /emit` with a `{code, version, lobby}` body broadcasts it with `io.to(room)` (the version
 * replaced by the next of a count kept here), the very
 * call the league server makes; `POST /chat` with `{code, message}` does the same for `lobby:chat`. With REDIS_URL it uses the plain Redis adapter (as the league
 * server does, minus recovery), so two of them measure a Redis hop.
 *
 * `tsx bench/realtime-bare-server.ts` with PORT (and optionally REDIS_URL, REDIS_PREFIX).
 */
import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import { Server } from 'socket.io';
import uWS from 'uWebSockets.js';

const app = uWS.App();
const io = new Server();
const redisClients: Array<ReturnType<typeof createClient>> = [];
if (process.env.REDIS_URL) {
  const pub = createClient({ url: process.env.REDIS_URL });
  const sub = pub.duplicate();
  redisClients.push(pub, sub);
  for (const client of redisClients) client.on('error', (error: Error) => process.stderr.write(`bare server: Redis: ${error.message}\n`));
  await Promise.all([pub.connect(), sub.connect()]);
  io.adapter(createAdapter(pub, sub, { key: `${process.env.REDIS_PREFIX ?? 'bare:'}socket.io` }));
}
// The league server's setting (realtime/socket-server.ts): uWS's default of 64 KB drops a slow
// reader's frames, which would count as less work for the baseline.
io.attachApp(app, { maxBackpressure: 1024 * 1024 } as Parameters<typeof io.attachApp>[1]);
/** Versions counted here, per lobby, in the order the broadcasts leave (concurrent POSTs may arrive in any order). */
const versions = new Map<string, number>();

io.on('connection', (socket) => {
  socket.on('lobby:subscribe', async (payload: { code: string }, ack: (answer: unknown) => void) => {
    await socket.join(`lobby:${payload.code}`);
    ack({ ok: true });
  });
  socket.on('lobbies:subscribe', async (ack: (answer: unknown) => void) => {
    await socket.join('lobbies');
    ack({ lobbies: [] });
  });
});

app.get('/healthz', (res) => {
  res.end('{"ok":true}');
});

/** A POST whose JSON body is handed to `emit`, answered `{ok: true}`. */
function emitRoute(path: string, emit: (body: { code: string }) => void): void {
  app.post(path, (res) => {
    const chunks: Buffer[] = [];
    let aborted = false;
    res.onAborted(() => (aborted = true));
    res.onData((chunk, last) => {
      chunks.push(Buffer.from(chunk.slice(0)));
      if (!last) return;
      emit(JSON.parse(Buffer.concat(chunks).toString()) as { code: string });
      if (!aborted) res.cork(() => res.end('{"ok":true}'));
    });
  });
}

emitRoute('/emit', (body) => {
  const update = body as { code: string; version: number; lobby: { version: number } };
  update.version = update.lobby.version = (versions.get(update.code) ?? 0) + 1;
  versions.set(update.code, update.version);
  io.to(`lobby:${update.code}`).emit('lobby:update', update);
});
emitRoute('/chat', (chat) => void io.to(`lobby:${chat.code}`).emit('lobby:chat', chat));

app.listen('127.0.0.1', Number(process.env.PORT), (socket) => {
  if (!socket) {
    process.stderr.write('bare server: could not listen\n');
    process.exit(1);
  }
});
process.once('SIGTERM', () => {
  // Closed first, so the connections end as planned rather than as errors.
  void Promise.allSettled(redisClients.map((client) => client.close())).finally(() => process.exit(0));
});
