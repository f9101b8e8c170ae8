import { fork, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import type { LobbyDetail } from '../schema/lobby';
import { keepAliveAgent, percentile, postOk } from './http-client';
import type { BenchProcess, LeagueCluster } from './realtime-processes';
import { RawSocketIoClient } from './realtime-raw-client';

/*
 * The fan-out measurement shared by the one- and two-instance benchmarks: SUBSCRIBERS raw
 * socket.io clients in one lobby room (in SUBSCRIBER_PROCESSES processes of their own), state
 * changes driven from this process, every `lobby:update` frame timed on arrival (wall-clock
 * milliseconds, comparable across processes on one machine). The same harness drives the bare baseline, so the ratio
 * compares servers, not clients.
 */
export const SUBSCRIBERS = 500;
// One receiving process per core: with the lean client a process reads its 250 frames in about a
// millisecond, and more processes than cores only add context switches to every delivery.
const SUBSCRIBER_PROCESSES = Math.max(2, cpus().length);
const WORKERS = 8;
const THROUGHPUT_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const RATE_PER_S = 50;
const LATENCY_COMMANDS = RATE_PER_S * Math.max(4, Number(process.env.BENCH_SECONDS ?? 5));
/** How long the subscribers may receive nothing before what they still lack counts as lost. */
const STALL_MS = 3_000;
/** The most a drain is waited for, however steadily it goes. */
const MAX_DRAIN_MS = 120_000;

export interface FanoutTarget {
  /** Where the subscribers connect. */
  subscribeUrl: string;
  code: string;
  /** The lobby's version before the first command; every command adds exactly one. */
  startVersion: number;
  /** One state change by worker `worker`; resolves when the server has answered. */
  command(worker: number): Promise<void>;
}

export interface FanoutResult {
  deliveriesPerS: number;
  p50: number;
  p99: number;
  max: number;
  /** Commands of the latency phase whose update did not reach every subscriber as a frame (a resynced client took it from a snapshot). */
  incomplete: number;
  /** Frames the subscribers should have received (one per version each) and did not, once they stopped receiving. */
  lost: number;
  /** From the last command of the throughput phase answered to every subscriber holding its version; null: they never all did. */
  catchUpMs: number | null;
  /** Changes that did not follow on from the version a client held; each answered by a resync. */
  gaps: number;
  skipped: number;
  resynced: number;
  /** Connections the server closed (rather than drop an ack to a client too far behind), each opened and subscribed again. */
  reconnects: number;
}

interface Arrival {
  count: number;
  last: number;
}

const now = () => performance.timeOrigin + performance.now();
const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - now())));

/** A process of SUBSCRIBERS / SUBSCRIBER_PROCESSES clients, asked over IPC what arrived when. */
class SubscriberProcess {
  private readonly replies: Array<(reply: unknown) => void> = [];

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (reply) => this.replies.shift()?.(reply));
  }

  static async start(url: string, code: string, count: number, patches: boolean): Promise<SubscriberProcess> {
    const child = fork('bench/realtime-subscriber-process.ts', [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const process_ = new SubscriberProcess(child);
    const ready = process_.ask({ connect: { url, code, count, patches } });
    const died = new Promise<never>((_, reject) => child.once('exit', (exit) => reject(new Error(`a subscriber process exited (${exit})`))));
    await Promise.race([ready, died]);
    return process_;
  }

  ask<T>(message: unknown): Promise<T> {
    return new Promise((resolve) => {
      this.replies.push(resolve as (reply: unknown) => void);
      this.child.send(message as string);
    });
  }

  stop(): void {
    if (this.child.connected) this.child.send('stop');
  }
}

export class Subscribers {
  private constructor(private readonly processes: SubscriberProcess[]) {}

  /** `patches`: the clients subscribe with `patches: true` (the league server then sends lobby:patch). */
  static async start(url: string, code: string, patches = false): Promise<Subscribers> {
    // An even split, the remainder spread one by one when the count does not divide.
    const share = (i: number) => Math.floor((SUBSCRIBERS * (i + 1)) / SUBSCRIBER_PROCESSES) - Math.floor((SUBSCRIBERS * i) / SUBSCRIBER_PROCESSES);
    return new Subscribers(await Promise.all(Array.from({ length: SUBSCRIBER_PROCESSES }, (_, i) => SubscriberProcess.start(url, code, share(i), patches))));
  }

  /** For each version from..to: how many subscribers got it and when the last one did. */
  async arrivals(from: number, to: number): Promise<Arrival[]> {
    const answers = await Promise.all(this.processes.map((p) => p.ask<{ arrivals: Array<[number, number]> }>({ range: [from, to] })));
    return Array.from({ length: to - from + 1 }, (_, i) => ({
      count: answers.reduce((sum, answer) => sum + answer.arrivals[i][0], 0),
      last: Math.max(...answers.map((answer) => answer.arrivals[i][1])),
    }));
  }

  /** Updates and chat messages received so far by all, when the last of each arrived, and the gaps the clients resynced. */
  async totals(): Promise<Totals> {
    const answers = await Promise.all(this.processes.map((p) => p.ask<Totals>('totals')));
    const sum = (key: keyof Totals) => answers.reduce((total, answer) => total + answer[key], 0);
    return {
      total: sum('total'),
      last: Math.max(...answers.map((a) => a.last)),
      chats: sum('chats'),
      chatLast: Math.max(...answers.map((a) => a.chatLast)),
      gaps: sum('gaps'),
      skipped: sum('skipped'),
      resynced: sum('resynced'),
      reconnects: sum('reconnects'),
    };
  }

  /**
   * Waits until every subscriber holds `version` (by a frame, or a snapshot after a gap) and
   * answers when that was; null when they stopped receiving first (nothing arrived for STALL_MS)
   * or MAX_DRAIN_MS ran out. A fan-out instance behind the instance taking the commands still
   * delivers what it owes, at its own pace: a fixed wait had counted a late frame as a lost one.
   */
  async delivered(version: number): Promise<number | null> {
    const holding = async () => (await Promise.all(this.processes.map((p) => p.ask<{ count: number }>({ atLeast: version })))).reduce((sum, a) => sum + a.count, 0);
    const received = async () => {
      const totals = await this.totals();
      return totals.total + totals.resynced;
    };
    const deadline = now() + MAX_DRAIN_MS;
    let seen = await received();
    let movedAt = now();
    while ((await holding()) < SUBSCRIBERS) {
      const at = now();
      if (at > deadline) return null;
      const count = await received();
      if (count !== seen) [seen, movedAt] = [count, at];
      else if (at - movedAt > STALL_MS) return null;
      await new Promise((r) => setTimeout(r, 10));
    }
    return now();
  }

  stop(): void {
    for (const p of this.processes) p.stop();
  }
}

interface Totals {
  total: number;
  last: number;
  chats: number;
  chatLast: number;
  gaps: number;
  skipped: number;
  resynced: number;
  reconnects: number;
}

export async function measureFanout(target: FanoutTarget, patches = false): Promise<FanoutResult> {
  const subscribers = await Subscribers.start(target.subscribeUrl, target.code, patches);
  let version = target.startVersion;
  // One command at a time per worker (a member's two votes in flight could reach the server in
  // the other order and the second change nothing): a worker's next command waits for its last.
  const queues = Array.from({ length: WORKERS }, () => Promise.resolve());
  const run = (worker: number) =>
    (queues[worker] = queues[worker].then(async () => {
      await target.command(worker);
      version += 1;
    }));

  try {
    for (let i = 0; i < 20; i++) await run(i % WORKERS); // warm-up: JIT, pools, caches
    await subscribers.delivered(version);
    const measuredFrom = version;
    const atStart = await subscribers.totals();

    // Latency first, on a quiet server: an open loop at RATE_PER_S, the workers in turn (a worker
    // still busy queues it: the wait counts); versions follow the send order as long as answers
    // come within WORKERS sends.
    const base = version;
    const sentAt: number[] = [];
    const first = now() + 50;
    const inFlight: Array<Promise<void>> = [];
    for (let i = 0; i < LATENCY_COMMANDS; i++) {
      await sleepUntil(first + (i * 1000) / RATE_PER_S);
      sentAt.push(now());
      inFlight.push(run(i % WORKERS));
    }
    await Promise.all(inFlight);
    await subscribers.delivered(version);
    const arrivals = await subscribers.arrivals(base + 1, base + LATENCY_COMMANDS);
    const latencies = arrivals.flatMap((a, i) => (a.count > 0 ? [a.last - sentAt[i]] : []));
    latencies.sort((a, b) => a - b);

    // Throughput: WORKERS closed loops for THROUGHPUT_MS; deliveries counted over the same window.
    const before = await subscribers.totals();
    const started = now();
    const stopAt = started + THROUGHPUT_MS;
    await Promise.all(
      Array.from({ length: WORKERS }, async (_, worker) => {
        while (now() < stopAt) await run(worker);
      }),
    );
    const lastAnswered = now();
    const caughtUpAt = await subscribers.delivered(version);
    const after = await subscribers.totals();
    const deliveriesPerS = (after.total - before.total) / ((after.last - started) / 1000);
    // Every subscriber holds the last version by now (or they stopped receiving): what did not come as a frame was lost.
    const lost = Math.max(0, (version - measuredFrom) * SUBSCRIBERS - (after.total - atStart.total));

    return {
      deliveriesPerS,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      max: latencies[latencies.length - 1] ?? NaN,
      incomplete: arrivals.filter((a) => a.count < SUBSCRIBERS).length,
      lost,
      catchUpMs: caughtUpAt === null ? null : caughtUpAt - lastAnswered,
      gaps: after.gaps - atStart.gaps,
      skipped: after.skipped - atStart.skipped,
      resynced: after.resynced - atStart.resynced,
      reconnects: after.reconnects - atStart.reconnects,
    };
  } finally {
    subscribers.stop();
  }
}


// ---- the two targets -------------------------------------------------------------------------

const agent = keepAliveAgent(16);
const post = (url: string, body: unknown, cookie?: string) => postOk(agent, url, body, cookie);

/**
 * A 6v6 lobby with WORKERS members; each worker is one member flipping its map vote through
 * REST on `commandInstance`, so every command is one real state change and one `lobby:update`.
 */
export async function leagueTarget(cluster: LeagueCluster, subscribeInstance: BenchProcess, commandInstance: BenchProcess): Promise<FanoutTarget & { lobby(): Promise<LobbyDetail> }> {
  const voters: Array<{ cookie: string; userId: number }> = [];
  for (let i = 0; i < WORKERS; i++) voters.push(await cluster.login());
  const created = (await post(`${commandInstance.url}/api/lobbies/`, { format: '6v6', name: 'fan-out bench' }, voters[0].cookie)) as {
    code: string;
    lobby: LobbyDetail;
  };
  for (const voter of voters.slice(1)) await post(`${commandInstance.url}/api/lobbies/${created.code}/join`, {}, voter.cookie);
  const maps = created.lobby.map_pool;
  const flips = voters.map(() => 0);
  let version = created.lobby.version + WORKERS - 1;
  return {
    subscribeUrl: subscribeInstance.url,
    code: created.code,
    // A getter: measured more than once, the next measurement starts where the last one ended.
    get startVersion() {
      return version;
    },
    async command(worker) {
      flips[worker] += 1;
      version += 1;
      await post(`${commandInstance.url}/api/lobbies/${created.code}/vote-map`, { map: maps[flips[worker] % 2] }, voters[worker].cookie);
    },
    async lobby() {
      const probe = await RawSocketIoClient.connect(subscribeInstance.url);
      const answer = (await probe.emitWithAck('lobby:subscribe', { code: created.code })) as { lobby: LobbyDetail };
      probe.close();
      return answer.lobby;
    },
  };
}

/** The bare server broadcasting the very same lobby, with a version that counts up per command. */
export function bareTarget(subscribeServer: BenchProcess, emitServer: BenchProcess, lobby: LobbyDetail): FanoutTarget {
  let version = 0;
  return {
    subscribeUrl: subscribeServer.url,
    code: lobby.code,
    startVersion: 0,
    async command() {
      version += 1;
      await post(`${emitServer.url}/emit`, { code: lobby.code, version, lobby: { ...lobby, version } });
    },
  };
}

/** The league with patch subscribers, the league with whole-lobby subscribers, and the bare baseline of the same run. */
export function describeFanout(label: string, runs: { patches: FanoutResult; full: FanoutResult }, bare: FanoutResult): string[] {
  const load = loadavg().map((n) => n.toFixed(1)).join(' ');
  const fmt = (n: number) => Math.round(n).toLocaleString('en');
  const ms = (n: number) => n.toFixed(1);
  const line = (result: FanoutResult) =>
    `${fmt(result.deliveriesPerS)} deliveries/s (${(result.deliveriesPerS / bare.deliveriesPerS).toFixed(2)}x bare); command-to-last-subscriber p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms (${(result.p99 / bare.p99).toFixed(2)}x bare), max ${ms(result.max)} ms${result.incomplete ? `, ${result.incomplete} incomplete` : ''}; ` +
    `${fmt(result.lost)} frames not received, ${result.gaps} gaps (${fmt(result.skipped)} versions skipped), ${result.resynced} resynced${result.reconnects ? `, ${result.reconnects} connections closed by the server and opened again` : ''}; ` +
    (result.catchUpMs === null ? 'the subscribers stopped receiving before all held the last version' : `all held the last version ${(result.catchUpMs / 1000).toFixed(1)} s after the last command`);
  const ratio = runs.patches.deliveriesPerS / bare.deliveriesPerS;
  const p99Ratio = runs.patches.p99 / bare.p99;
  const healed = runs.patches.gaps === runs.patches.resynced && runs.full.gaps === runs.full.resynced;
  return [
    `${label}: ${SUBSCRIBERS} raw-protocol subscribers in one lobby room; throughput with ${WORKERS} command loops, latency at ${RATE_PER_S} commands/s`,
    `  league, patch subscribers (REST vote-map -> engine -> lobby:patch): ${line(runs.patches)}`,
    `  league, whole-lobby subscribers (lobby:update):                  ${line(runs.full)}`,
    `  bare socket.io on uWS (POST -> io.to(room), whole LobbyDetail):   ${line(bare)}`,
    `  patches vs bare: ${ratio.toFixed(2)}x deliveries/s (target >= 1.0x) ${ratio >= 1 ? 'MET' : 'NOT MET'}; p99 ${p99Ratio.toFixed(2)}x (target <= 1.3x) ${p99Ratio <= 1.3 ? 'MET' : 'NOT MET'}; every gap resynced: ${healed ? 'yes' : 'NO'}`,
    `  machine: ${cpus().length} cores, load average ${load} at the end (server, clients and stores share the cores)`,
  ];
}
