/**
 * One subscriber process of the fan-out benchmark (started with IPC by realtime-fanout-run.ts):
 * opens `count` raw socket.io clients, subscribes them all to one lobby and times every
 * `lobby:update` frame by its version, and counts `lobby:chat` frames. Several such processes share the receiving work, so the
 * last of 500 deliveries is not held up by one process reading 500 sockets in turn.
 *
 * Messages in: {connect: {url, code, count}}, {range: [from, to]}, 'totals', 'stop'.
 * Messages out: 'ready', {arrivals: [[count, last], ...]} for from..to, {total, last, chats, chatLast}.
 */
import { isChatFrame, RawSocketIoClient, updateVersion } from './realtime-raw-client';

interface Arrival {
  count: number;
  last: number;
}

type Command = { connect: { url: string; code: string; count: number } } | { range: [number, number] } | 'totals' | 'stop';

const arrivals = new Map<number, Arrival>();
let total = 0;
let lastAt = 0;
let chats = 0;
let chatLast = 0;
const clients: RawSocketIoClient[] = [];

function onEvent(frame: Buffer, at: number): void {
  const version = updateVersion(frame);
  if (version === null) {
    if (isChatFrame(frame)) {
      chats += 1;
      chatLast = at;
    }
    return;
  }
  total += 1;
  lastAt = at;
  const seen = arrivals.get(version);
  if (seen) {
    seen.count += 1;
    seen.last = at;
  } else arrivals.set(version, { count: 1, last: at });
}

async function connect(url: string, code: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => RawSocketIoClient.connect(url)));
    await Promise.all(batch.map((client) => client.emitWithAck('lobby:subscribe', { code })));
    for (const client of batch) client.onEvent = onEvent;
    clients.push(...batch);
  }
}

process.on('message', (message: Command) => {
  if (message === 'stop') {
    for (const client of clients) client.close();
    process.exit(0);
  } else if (message === 'totals') {
    process.send!({ total, last: lastAt, chats, chatLast });
  } else if ('range' in message) {
    const [from, to] = message.range;
    const answer: Array<[number, number]> = [];
    for (let version = from; version <= to; version++) {
      const arrival = arrivals.get(version);
      answer.push([arrival?.count ?? 0, arrival?.last ?? 0]);
    }
    process.send!({ arrivals: answer });
  } else {
    const { url, code, count } = message.connect;
    connect(url, code, count).then(
      () => process.send!('ready'),
      (error: unknown) => {
        process.stderr.write(`subscriber process: ${String(error)}\n`);
        process.exit(1);
      },
    );
  }
});
