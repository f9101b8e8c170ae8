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
const DRAIN_MS = 15_000;

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
  /** Commands of the latency phase whose update did not reach every subscriber. */
  incomplete: number;
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

  static async start(url: string, code: string, count: number): Promise<SubscriberProcess> {
    const child = fork('bench/realtime-subscriber-process.ts', [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const process_ = new SubscriberProcess(child);
    const ready = process_.ask({ connect: { url, code, count } });
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

  static async start(url: string, code: string): Promise<Subscribers> {
    // An even split, the remainder spread one by one when the count does not divide.
    const share = (i: number) => Math.floor((SUBSCRIBERS * (i + 1)) / SUBSCRIBER_PROCESSES) - Math.floor((SUBSCRIBERS * i) / SUBSCRIBER_PROCESSES);
    return new Subscribers(await Promise.all(Array.from({ length: SUBSCRIBER_PROCESSES }, (_, i) => SubscriberProcess.start(url, code, share(i)))));
  }

  /** For each version from..to: how many subscribers got it and when the last one did. */
  async arrivals(from: number, to: number): Promise<Arrival[]> {
    const answers = await Promise.all(this.processes.map((p) => p.ask<{ arrivals: Array<[number, number]> }>({ range: [from, to] })));
    return Array.from({ length: to - from + 1 }, (_, i) => ({
      count: answers.reduce((sum, answer) => sum + answer.arrivals[i][0], 0),
      last: Math.max(...answers.map((answer) => answer.arrivals[i][1])),
    }));
  }

  /** Updates and chat messages received so far by all, and when the last of each arrived. */
  async totals(): Promise<{ total: number; last: number; chats: number; chatLast: number }> {
    type Totals = { total: number; last: number; chats: number; chatLast: number };
    const answers = await Promise.all(this.processes.map((p) => p.ask<Totals>('totals')));
    return {
      total: answers.reduce((sum, a) => sum + a.total, 0),
      last: Math.max(...answers.map((a) => a.last)),
      chats: answers.reduce((sum, a) => sum + a.chats, 0),
      chatLast: Math.max(...answers.map((a) => a.chatLast)),
    };
  }

  /** Waits until `version` has reached every subscriber (each socket receives in order), or DRAIN_MS passed. */
  async delivered(version: number): Promise<void> {
    const deadline = now() + DRAIN_MS;
    while (now() < deadline && (await this.arrivals(version, version))[0].count < SUBSCRIBERS) {
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  stop(): void {
    for (const p of this.processes) p.stop();
  }
}

export async function measureFanout(target: FanoutTarget): Promise<FanoutResult> {
  const subscribers = await Subscribers.start(target.subscribeUrl, target.code);
  let version = target.startVersion;
  const run = async (worker: number) => {
    await target.command(worker);
    version += 1;
  };

  try {
    for (let i = 0; i < 20; i++) await run(i % WORKERS); // warm-up: JIT, pools, caches
    await subscribers.delivered(version);

    // Latency first, on a quiet server: an open loop at RATE_PER_S; versions follow the send order
    // (one worker, 20 ms apart).
    const base = version;
    const sentAt: number[] = [];
    const first = now() + 50;
    const inFlight: Array<Promise<void>> = [];
    for (let i = 0; i < LATENCY_COMMANDS; i++) {
      await sleepUntil(first + (i * 1000) / RATE_PER_S);
      sentAt.push(now());
      inFlight.push(run(0));
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
    await subscribers.delivered(version);
    const after = await subscribers.totals();
    const deliveriesPerS = (after.total - before.total) / ((after.last - started) / 1000);

    return {
      deliveriesPerS,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      max: latencies[latencies.length - 1] ?? NaN,
      incomplete: arrivals.filter((a) => a.count < SUBSCRIBERS).length,
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
  return {
    subscribeUrl: subscribeInstance.url,
    code: created.code,
    startVersion: created.lobby.version + WORKERS - 1,
    async command(worker) {
      flips[worker] += 1;
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

export function describeFanout(label: string, ours: FanoutResult, bare: FanoutResult): string[] {
  const load = loadavg().map((n) => n.toFixed(1)).join(' ');
  const ratio = ours.deliveriesPerS / bare.deliveriesPerS;
  const fmt = (n: number) => Math.round(n).toLocaleString('en');
  const ms = (n: number) => n.toFixed(1);
  return [
    `${label}: ${SUBSCRIBERS} subscribers in one lobby room; throughput with ${WORKERS} command loops, latency at ${RATE_PER_S} commands/s`,
    `  league (REST vote-map -> engine -> io.to(room)): ${fmt(ours.deliveriesPerS)} deliveries/s; command-to-last-delivery p50 ${ms(ours.p50)} ms, p99 ${ms(ours.p99)} ms, max ${ms(ours.max)} ms${ours.incomplete ? `, ${ours.incomplete} incomplete` : ''}`,
    `  bare socket.io on uWS (POST -> io.to(room)):      ${fmt(bare.deliveriesPerS)} deliveries/s; p50 ${ms(bare.p50)} ms, p99 ${ms(bare.p99)} ms, max ${ms(bare.max)} ms${bare.incomplete ? `, ${bare.incomplete} incomplete` : ''}`,
    `  ratio: ${ratio.toFixed(2)}x (target >= 0.5x) ${ratio >= 0.5 ? 'MET' : 'NOT MET'}; p99 ${ms(ours.p99)} ms (target < 15 ms) ${ours.p99 < 15 ? 'MET' : 'NOT MET'}`,
    `  machine: ${cpus().length} cores, load average ${load} at the end (server, clients and stores share the cores)`,
  ];
}
