/**
 * One subscriber process of the fan-out benchmark (started with IPC by realtime-fanout-run.ts):
 * opens `count` raw socket.io clients, subscribes them all to one lobby (`patches`: as
 * `lobby:patch` subscribers), times every `lobby:update`/`lobby:patch` frame by its version, and
 * counts `lobby:chat` frames. Each client does what the protocol asks of one: a change that does not
 * follow on from the version it holds (the server skipped it while its socket was too far behind)
 * is a gap, and it subscribes again for a snapshot; the process counts gaps, the versions they
 * skipped and the resyncs done. A connection the server closes (it does so rather than drop an
 * acknowledgement to a client too far behind) is opened again and subscribed again, as
 * socket.io-client would; that snapshot answers a gap still unanswered. Several such processes share the receiving work, so the last of 500
 * deliveries is not held up by one process reading 500 sockets in turn.
 *
 * Messages in: {connect: {url, code, count, patches}}, {range: [from, to]}, {atLeast: version}, 'totals', 'stop'.
 * Messages out: 'ready', {arrivals: [[count, last], ...]} for from..to, {count} of clients holding
 * `version` or later, {total, last, chats, chatLast, gaps, skipped, resynced, reconnects}.
 */
import { isChatFrame, patchBase, RawSocketIoClient, updateVersion } from './realtime-raw-client';

interface Arrival {
  count: number;
  last: number;
}

type Command =
  | { connect: { url: string; code: string; count: number; patches: boolean } }
  | { range: [number, number] }
  | { atLeast: number }
  | 'totals'
  | 'stop';

interface Watch {
  client: RawSocketIoClient;
  /** The version held; -1 while a (re)subscribe is unanswered, ANY after a bare ack. */
  held: number;
  /** A gap was seen and no snapshot has answered it yet. */
  owed: boolean;
}

const arrivals = new Map<number, Arrival>();
let total = 0;
let lastAt = 0;
let chats = 0;
let chatLast = 0;
let gaps = 0;
let skipped = 0;
let resynced = 0;
let reconnects = 0;
const watches: Watch[] = [];

function onEvent(watch: Watch, frame: Buffer, at: number): void {
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
  if (watch.held === ANY) return void (watch.held = version);
  if (watch.held < 0) return; // sent before the server took the subscribe again: the snapshot supersedes it
  const base = patchBase(frame) ?? version - 1;
  if (base === watch.held) watch.held = version;
  else if (version > watch.held) {
    gaps += 1;
    skipped += version - watch.held - 1;
    watch.owed = true;
    void subscribe(watch);
  }
}

let subscription: { url: string; code: string; patches: boolean };

function subscribe(watch: Watch): Promise<void> {
  const { code, patches } = subscription;
  watch.held = -1;
  return watch.client.emitWithAck('lobby:subscribe', patches ? { code, patches } : { code }).then((answer) => {
    watch.held = (answer as { lobby?: { version: number } }).lobby?.version ?? ANY;
    if (watch.owed) [watch.owed, resynced] = [false, resynced + 1];
  });
}

/** Held after an ack with no snapshot (the bare baseline's): the next frame is taken as it comes. */
const ANY = -2;

function attach(watch: Watch, client: RawSocketIoClient): Promise<void> {
  watch.client = client;
  client.onEvent = (frame, at) => onEvent(watch, frame, at);
  client.onClose = () => {
    reconnects += 1;
    watch.held = -1;
    RawSocketIoClient.connect(subscription.url).then(
      (again) => attach(watch, again),
      (error: unknown) => process.stderr.write(`subscriber process: a reconnection failed: ${String(error)}\n`),
    );
  };
  return subscribe(watch);
}

async function connect(url: string, code: string, count: number, patches: boolean): Promise<void> {
  subscription = { url, code, patches };
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => RawSocketIoClient.connect(url)));
    await Promise.all(
      batch.map((client) => {
        const watch: Watch = { client, held: -1, owed: false };
        watches.push(watch);
        return attach(watch, client);
      }),
    );
  }
}

process.on('message', (message: Command) => {
  if (message === 'stop') {
    for (const watch of watches) watch.client.close();
    process.exit(0);
  } else if (message === 'totals') {
    process.send!({ total, last: lastAt, chats, chatLast, gaps, skipped, resynced, reconnects });
  } else if ('range' in message) {
    const [from, to] = message.range;
    const answer: Array<[number, number]> = [];
    for (let version = from; version <= to; version++) {
      const arrival = arrivals.get(version);
      answer.push([arrival?.count ?? 0, arrival?.last ?? 0]);
    }
    process.send!({ arrivals: answer });
  } else if ('atLeast' in message) {
    process.send!({ count: watches.filter((watch) => watch.held >= message.atLeast).length });
  } else {
    const { url, code, count, patches } = message.connect;
    connect(url, code, count, patches).then(
      () => process.send!('ready'),
      (error: unknown) => {
        process.stderr.write(`subscriber process: ${String(error)}\n`);
        process.exit(1);
      },
    );
  }
});
