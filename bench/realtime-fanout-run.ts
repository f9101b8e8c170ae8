import type { LobbyDetail } from '../schema/lobby';
import type { BenchProcess, LeagueCluster } from './realtime-processes';
import { RawSocketIoClient, updateVersion } from './realtime-raw-client';

/*
 * The fan-out measurement shared by the one- and two-instance benchmarks: SUBSCRIBERS raw
 * socket.io clients in one lobby room (in this process), state changes driven from here, every
 * `lobby:update` frame timed on arrival. The same harness drives the bare baseline, so the ratio
 * compares servers, not clients.
 */
export const SUBSCRIBERS = 500;
const WORKERS = 4;
const THROUGHPUT_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const RATE_PER_S = 50;
const LATENCY_COMMANDS = RATE_PER_S * Math.max(4, Number(process.env.BENCH_SECONDS ?? 5));
const DRAIN_MS = 3_000;

export interface FanoutTarget {
  /** Where the subscribers connect. */
  subscribeUrl: string;
  code: string;
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

export async function connectSubscribers(url: string, code: string, count: number): Promise<RawSocketIoClient[]> {
  const clients: RawSocketIoClient[] = [];
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => RawSocketIoClient.connect(url)));
    await Promise.all(batch.map((client) => client.emitWithAck('lobby:subscribe', { code })));
    clients.push(...batch);
  }
  return clients;
}

export async function measureFanout(target: FanoutTarget): Promise<FanoutResult> {
  const clients = await connectSubscribers(target.subscribeUrl, target.code, SUBSCRIBERS);
  const arrivals = new Map<number, Arrival>();
  let maxVersion = 0;
  const onEvent = (text: string, at: number) => {
    const version = updateVersion(text);
    if (version === null) return;
    const seen = arrivals.get(version);
    if (seen) {
      seen.count += 1;
      seen.last = at;
    } else arrivals.set(version, { count: 1, last: at });
    if (version > maxVersion) maxVersion = version;
  };
  for (const client of clients) client.onEvent = onEvent;

  try {
    for (let i = 0; i < 20; i++) await target.command(i % WORKERS); // warm-up: JIT, pools, caches
    await drained(arrivals, () => maxVersion);

    // Throughput: WORKERS closed loops for THROUGHPUT_MS; deliveries counted over the same window.
    const countBefore = totalDeliveries(arrivals);
    const started = now();
    const stopAt = started + THROUGHPUT_MS;
    await Promise.all(
      Array.from({ length: WORKERS }, async (_, worker) => {
        while (now() < stopAt) await target.command(worker);
      }),
    );
    await drained(arrivals, () => maxVersion);
    const elapsedS = (lastArrival(arrivals) - started) / 1000;
    const deliveriesPerS = (totalDeliveries(arrivals) - countBefore) / elapsedS;

    // Latency: an open loop at RATE_PER_S; versions follow the send order (one worker, 20 ms apart).
    const base = maxVersion;
    const sentAt: number[] = [];
    const first = now() + 50;
    const inFlight: Array<Promise<void>> = [];
    for (let i = 0; i < LATENCY_COMMANDS; i++) {
      await sleepUntil(first + (i * 1000) / RATE_PER_S);
      sentAt.push(now());
      inFlight.push(target.command(0));
    }
    await Promise.all(inFlight);
    await drained(arrivals, () => maxVersion);
    const latencies: number[] = [];
    let incomplete = 0;
    sentAt.forEach((sent, i) => {
      const arrival = arrivals.get(base + 1 + i);
      if (!arrival || arrival.count < SUBSCRIBERS) incomplete += 1;
      if (arrival) latencies.push(arrival.last - sent);
    });
    latencies.sort((a, b) => a - b);
    return {
      deliveriesPerS,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      max: latencies[latencies.length - 1] ?? NaN,
      incomplete,
    };
  } finally {
    for (const client of clients) client.close();
  }
}

/** Waits until the newest version has reached every subscriber, or DRAIN_MS passed. */
async function drained(arrivals: Map<number, Arrival>, newest: () => number): Promise<void> {
  const deadline = now() + DRAIN_MS;
  while (now() < deadline && (arrivals.get(newest())?.count ?? SUBSCRIBERS) < SUBSCRIBERS) {
    await new Promise((r) => setTimeout(r, 5));
  }
}

function totalDeliveries(arrivals: Map<number, Arrival>): number {
  let total = 0;
  for (const arrival of arrivals.values()) total += arrival.count;
  return total;
}

function lastArrival(arrivals: Map<number, Arrival>): number {
  let last = 0;
  for (const arrival of arrivals.values()) last = Math.max(last, arrival.last);
  return last;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

// ---- the two targets -------------------------------------------------------------------------

async function post(url: string, body: unknown, cookie?: string): Promise<Response> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
  return response;
}

/**
 * A 6v6 lobby with WORKERS members; each worker is one member flipping its map vote through
 * REST on `commandInstance`, so every command is one real state change and one `lobby:update`.
 */
export async function leagueTarget(cluster: LeagueCluster, subscribeInstance: BenchProcess, commandInstance: BenchProcess): Promise<FanoutTarget & { lobby(): Promise<LobbyDetail> }> {
  const voters: Array<{ cookie: string; userId: number }> = [];
  for (let i = 0; i < WORKERS; i++) voters.push(await cluster.login());
  const created = (await (await post(`${commandInstance.url}/api/lobbies/`, { format: '6v6', name: 'fan-out bench' }, voters[0].cookie)).json()) as {
    code: string;
    lobby: LobbyDetail;
  };
  for (const voter of voters.slice(1)) await post(`${commandInstance.url}/api/lobbies/${created.code}/join`, {}, voter.cookie);
  const maps = created.lobby.map_pool;
  const flips = voters.map(() => 0);
  return {
    subscribeUrl: subscribeInstance.url,
    code: created.code,
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
    async command() {
      version += 1;
      await post(`${emitServer.url}/emit`, { code: lobby.code, version, lobby: { ...lobby, version } });
    },
  };
}

export function describeFanout(label: string, ours: FanoutResult, bare: FanoutResult): string[] {
  const ratio = ours.deliveriesPerS / bare.deliveriesPerS;
  const fmt = (n: number) => Math.round(n).toLocaleString('en');
  const ms = (n: number) => n.toFixed(1);
  return [
    `${label}: ${SUBSCRIBERS} subscribers in one lobby room; throughput with ${WORKERS} command loops, latency at ${RATE_PER_S} commands/s`,
    `  league (REST vote-map -> engine -> io.to(room)): ${fmt(ours.deliveriesPerS)} deliveries/s; command-to-last-delivery p50 ${ms(ours.p50)} ms, p99 ${ms(ours.p99)} ms, max ${ms(ours.max)} ms${ours.incomplete ? `, ${ours.incomplete} incomplete` : ''}`,
    `  bare socket.io on uWS (POST -> io.to(room)):      ${fmt(bare.deliveriesPerS)} deliveries/s; p50 ${ms(bare.p50)} ms, p99 ${ms(bare.p99)} ms, max ${ms(bare.max)} ms${bare.incomplete ? `, ${bare.incomplete} incomplete` : ''}`,
    `  ratio: ${ratio.toFixed(2)}x (target >= 0.5x) ${ratio >= 0.5 ? 'MET' : 'NOT MET'}; p99 ${ms(ours.p99)} ms (target < 15 ms) ${ours.p99 < 15 ? 'MET' : 'NOT MET'}`,
  ];
}
