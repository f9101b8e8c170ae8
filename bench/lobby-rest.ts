import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LobbyDetail } from '../schema/lobby';
import { cpuMs, getOk, httpRequest, keepAliveAgent, percentile, postOk } from './http-client';
import { databaseLabel, startLeagueCluster, startProcess, type BenchProcess, type LeagueCluster } from './realtime-processes';

/*
 * Lobby commands through the door clients use: one server process with Redis and Postgres, 480
 * users logged in through the real login flow (session cookies), 40 lobbies of 12 (10 drafted,
 * whose seated players send keep-ready; 30 gathering, whose members flip their map vote), every
 * 10th command a chat, IN_FLIGHT requests at once over kept-alive node:http. The baselines,
 * driven by the same driver, are the league's own native command routes on uWS answering the same
 * requests with no work behind them (bench/rest-bare-server.ts), and raw uWS answering the same
 * routes after reading the cookie and parsing the body (bench/rest-raw-server.ts, the issue 28
 * targets are ratios to it): the transport's ceiling here and now, so a slow machine shows.
 *
 * The three servers run side by side and are driven in turn, one second each, SECONDS times
 * over: this machine's speed swings by a third within minutes, and measured one after the other
 * the ratios swung with it. Each server's CPU is read over the whole measured stretch (the
 * league's background work during the others' seconds is its commands' too). Every server first
 * warms up alone: the league for WARM_UP_S, until V8 has compiled its hot paths (with 2 s,
 * TurboFan still took 17% of the league's CPU in the measured phase: docs/benchmarks.md, round 32).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_S = Number(process.env.BENCH_WARMUP_S ?? 20);
/** The baselines' warm-up: a few lines of handler, hot within a second. */
const BASELINE_WARM_UP_S = 3;
const SLICE_S = 1;
/** See interleaved: longer than WRITE_BEHIND_MS (src/engine/lobby-documents.ts) and a Postgres write. */
const SLICE_GRACE_MS = 500;
const IN_FLIGHT = 16;
/** BENCH_LOBBIES: more lobbies, so more users in use, each checked four times a second (src/identity/checked-reads.ts). */
const LOBBIES = Number(process.env.BENCH_LOBBIES ?? 40);
/** BENCH_DRAFTED: how many of the lobbies send keep-ready (the rest vote), to weigh one command against the other. */
const DRAFTED = Number(process.env.BENCH_DRAFTED ?? Math.round(LOBBIES / 4));
const MEMBERS = 12;
/** Picks after start-draft: 11 of 12 seated, so the draft goes on and ready never takes it live. */
const PICKS = MEMBERS - 3;
const CHAT_EVERY = 10;

interface Member {
  cookie: string;
  userId: number;
  vote: number;
}

interface Table {
  code: string;
  drafted: boolean;
  maps: string[];
  members: Member[];
  /** Who sends keep-ready (drafted lobbies): the seated. */
  seated: Member[];
}

interface Run {
  /** The server's own counts over the measured phase (its /metrics); the league only. */
  counts?: ServerCounts;
  commands: number;
  failures: Map<string, number>;
  latencies: number[];
  seconds: number;
  serverCpuMs: number;
  /** Interleaved runs: the server's CPU over the whole stretch, the other servers' slices included. */
  wholeCpuMs?: number;
}

const agent = keepAliveAgent(IN_FLIGHT);
const pickOne = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)];

async function inBatches<T>(count: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += size) out.push(...(await Promise.all(Array.from({ length: Math.min(size, count - i) }, (_, j) => make(i + j)))));
  return out;
}

async function setUpTable(url: string, members: Member[], drafted: boolean, index: number): Promise<Table> {
  const [host] = members;
  const created = (await postOk(agent, `${url}/api/lobbies/`, { format: '6v6', name: `bench ${index}` }, host.cookie)) as { code: string; lobby: LobbyDetail };
  const { code } = created;
  for (const member of members.slice(1)) await postOk(agent, `${url}/api/lobbies/${code}/join`, {}, member.cookie);
  const table: Table = { code, drafted, maps: created.lobby.map_pool, members, seated: [] };
  if (!drafted) return table;
  await postOk(agent, `${url}/api/lobbies/${code}/start-draft`, {}, host.cookie);
  let lobby = (await getOk(agent, `${url}/api/lobbies/${code}`)) as LobbyDetail;
  for (let pick = 0; pick < PICKS; pick++) {
    const captain = members.find((m) => m.userId === lobby.captains[lobby.turn!])!;
    await postOk(agent, `${url}/api/lobbies/${code}/pick`, { user_id: lobby.pool[0].id }, captain.cookie);
    lobby = (await getOk(agent, `${url}/api/lobbies/${code}`)) as LobbyDetail;
  }
  const seatedIds = new Set([...lobby.teams.red, ...lobby.teams.blu].flatMap((slot) => (slot.user ? [slot.user.id] : [])));
  table.seated = members.filter((m) => seatedIds.has(m.userId));
  return table;
}

/** One command of the mix, as its REST request; resolves with the status. */
function oneCommand(url: string, table: Table, chat: boolean): Promise<{ kind: string; status: number }> {
  const send = (kind: string, member: Member, body: unknown) =>
    httpRequest(agent, 'POST', `${url}/api/lobbies/${table.code}/${kind}`, { body, cookie: member.cookie }).then((a) => ({ kind, status: a.status, text: a.text }));
  if (chat) return send('chat', pickOne(table.members), { message: 'gl hf' });
  if (table.drafted) return send('keep-ready', pickOne(table.seated), {});
  const member = pickOne(table.members);
  member.vote = 1 - member.vote;
  return send('vote-map', member, { map: table.maps[member.vote] });
}

async function drive(url: string, seconds: number, command: (n: number) => Promise<{ kind: string; status: number }>, pid: number): Promise<Run> {
  const latencies: number[] = [];
  const failures = new Map<string, number>();
  let sent = 0;
  const cpuBefore = cpuMs(pid);
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < until) {
        const n = sent++;
        const at = performance.now();
        const { kind, status } = await command(n);
        latencies.push(performance.now() - at);
        if (status !== 200) failures.set(`${kind} ${status}`, (failures.get(`${kind} ${status}`) ?? 0) + 1);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { commands: latencies.length, failures, latencies, seconds: elapsed, serverCpuMs: cpuMs(pid) - cpuBefore };
}

/**
 * Drives each target in turn for SLICE_S, `slices` times over; answers one run per target. A run's
 * CPU is its server's over its own slices, each read until SLICE_GRACE_MS after the slice ended
 * (the work a slice's commands leave behind: the write-behind to Postgres, WRITE_BEHIND_MS), as a
 * run of one server alone would count it. `wholeCpuMs` is over the whole stretch: it also counts
 * the league's timers (the identity checks, the probes) during the other servers' slices, twice
 * the league's own time, which a run of one server alone does not charge to its commands.
 */
async function interleaved(targets: Array<{ url: string; pid: number; command: (n: number) => Promise<{ kind: string; status: number }> }>, slices: number): Promise<Run[]> {
  const cpuBefore = targets.map(({ pid }) => cpuMs(pid));
  const runs: Run[] = targets.map(() => ({ commands: 0, failures: new Map(), latencies: [], seconds: 0, serverCpuMs: 0 }));
  const afterGrace: Promise<void>[] = [];
  for (let slice = 0; slice < slices; slice++) {
    for (const [i, target] of targets.entries()) {
      const cpuAtStart = cpuMs(target.pid);
      const part = await drive(target.url, SLICE_S, target.command, target.pid);
      const run = runs[i];
      afterGrace.push(sleep(SLICE_GRACE_MS).then(() => void (run.serverCpuMs += cpuMs(target.pid) - cpuAtStart)));
      run.commands += part.commands;
      run.seconds += part.seconds;
      run.latencies.push(...part.latencies);
      for (const [what, n] of part.failures) run.failures.set(what, (run.failures.get(what) ?? 0) + n);
    }
  }
  await Promise.all(afterGrace);
  for (const [i, run] of runs.entries()) {
    run.wholeCpuMs = cpuMs(targets[i].pid) - cpuBefore[i];
    run.latencies.sort((a, b) => a - b);
  }
  return runs;
}

function describeRun(label: string, run: Run): string {
  const rate = run.commands / run.seconds;
  const failed = [...run.failures].map(([what, n]) => `${n} x ${what}`).join(', ');
  return (
    `  ${label}: ${Math.round(rate).toLocaleString('en')} commands/s, p50 ${percentile(run.latencies, 0.5).toFixed(2)} ms, ` +
    `p99 ${percentile(run.latencies, 0.99).toFixed(2)} ms, server CPU ${(run.serverCpuMs / run.commands).toFixed(3)} ms/command` +
    (run.wholeCpuMs === undefined ? '' : ` (over the whole stretch ${(run.wholeCpuMs / run.commands).toFixed(3)})`) +
    (failed ? `; NOT 200: ${failed}` : '; every answer 200')
  );
}

/** What the league server counted itself (its /metrics): live-store calls by operation, and its GC pauses by kind. */
interface ServerCounts {
  storeCalls: Map<string, number>;
  /** Seconds the main thread spent paused for the garbage collector (prom-client's default metrics). */
  gcSeconds: Map<string, number>;
}

async function serverCounts(url: string): Promise<ServerCounts> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (pattern: RegExp) => new Map([...text.matchAll(pattern)].map((match) => [match[1], Number(match[2])]));
  return {
    storeCalls: read(/^live_store_call_duration_seconds_count\{operation="([^"]+)"\} (\d+)$/gm),
    gcSeconds: read(/^nodejs_gc_duration_seconds_sum\{kind="([^"]+)"\} ([\d.e-]+)$/gm),
  };
}

function countsBetween(before: ServerCounts, after: ServerCounts): ServerCounts {
  const minus = (a: Map<string, number>, b: Map<string, number>) => new Map([...a].map(([key, n]) => [key, n - (b.get(key) ?? 0)]));
  return { storeCalls: minus(after.storeCalls, before.storeCalls), gcSeconds: minus(after.gcSeconds, before.gcSeconds) };
}

/** Issue 28's "one store round trip per command in the common case", as the server counted its calls. */
function describeStoreCalls(run: Run): string {
  const calls = [...(run.counts?.storeCalls ?? [])].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  const total = calls.reduce((sum, [, n]) => sum + n, 0);
  const per = (n: number) => (n / run.commands).toFixed(n / run.commands < 0.01 ? 4 : 2);
  return `  league's live-store calls (Redis round trips, a subscription's messages not counted): ${per(total)} per command (${calls.map(([op, n]) => `${op} ${per(n)}`).join(', ')})`;
}

/** The main thread's GC pauses: a share of the server's CPU per command that no code path shows in a profile. */
function describeGc(run: Run): string {
  const kinds = [...(run.counts?.gcSeconds ?? [])].filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1]);
  const total = kinds.reduce((sum, [, s]) => sum + s, 0);
  const perCommand = (s: number) => ((s * 1000) / run.commands).toFixed(3);
  return (
    `  league's GC pauses: ${perCommand(total)} ms per command, ${((100 * total) / run.seconds).toFixed(1)}% of the measured time ` +
    `(${kinds.map(([kind, s]) => `${kind} ${perCommand(s)}`).join(', ')})`
  );
}

/** A baseline server's command: half vote-map, half keep-ready, one cookie. */
function echoOf(url: string) {
  const cookie = 'league_session=bench';
  return (n: number) =>
    httpRequest(agent, 'POST', `${url}/api/lobbies/ABCDEF/${n % 2 ? 'vote-map' : 'keep-ready'}`, { body: { map: 'cp_process_final' }, cookie }).then((a) => ({
      kind: 'echo',
      status: a.status,
    }));
}

/** Issue 28's targets, each a ratio to the raw baseline of the same run. */
function rawRatios(ours: Run, raw: Run): string[] {
  const rate = ours.commands / ours.seconds / (raw.commands / raw.seconds);
  const p99 = percentile(ours.latencies, 0.99) / percentile(raw.latencies, 0.99);
  const cpu = ours.serverCpuMs / ours.commands / (raw.serverCpuMs / raw.commands);
  const wholeCpu = ours.wholeCpuMs! / ours.commands / (raw.wholeCpuMs! / raw.commands);
  const verdict = (met: boolean) => (met ? 'MET' : 'NOT MET');
  return [
    `  against raw uWS: rate ${rate.toFixed(2)}x (target >= 0.3x: ${verdict(rate >= 0.3)}), p99 ${p99.toFixed(1)}x (target <= 3x: ${verdict(p99 <= 3)}), ` +
      `server CPU per command ${cpu.toFixed(1)}x (target <= 8x: ${verdict(cpu <= 8)}; over the whole stretch ${wholeCpu.toFixed(1)}x)`,
  ];
}

export async function benchLobbyRest(): Promise<string[]> {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl || !process.env.DATABASE_URL) return ['lobby commands through REST: skipped (needs REDIS_URL and DATABASE_URL)'];
  const cluster: LeagueCluster = await startLeagueCluster(1, { redisUrl });
  const baselines: BenchProcess[] = [];
  let ours: Run;
  let bare: Run;
  let raw: Run;
  let setup: string;
  try {
    const [server] = cluster.instances;
    const setupStarted = performance.now();
    const members = await inBatches(LOBBIES * MEMBERS, 16, async () => ({ ...(await cluster.login()), vote: 0 }));
    const loggedIn = performance.now();
    const tables = await inBatches(LOBBIES, 8, (i) => setUpTable(server.url, members.slice(i * MEMBERS, (i + 1) * MEMBERS), i < DRAFTED, i));
    // Flags last 30 s: raised just before the run, then kept by the keep-ready of the mix.
    for (const table of tables) await Promise.all(table.seated.map((m) => postOk(agent, `${server.url}/api/lobbies/${table.code}/ready`, {}, m.cookie)));
    setup = `  setup: ${members.length} logins in ${((loggedIn - setupStarted) / 1000).toFixed(1)} s, ${LOBBIES} lobbies in ${((performance.now() - loggedIn) / 1000).toFixed(1)} s`;
    const mix = (n: number) => oneCommand(server.url, pickOne(tables), n % CHAT_EVERY === CHAT_EVERY - 1);
    await drive(server.url, WARM_UP_S, mix, server.pid);
    for (const script of ['bench/rest-bare-server.ts', 'bench/rest-raw-server.ts']) baselines.push(await startProcess(script, {}));
    for (const baseline of baselines) await drive(baseline.url, BASELINE_WARM_UP_S, echoOf(baseline.url), baseline.pid);
    // bench/serve.ts profiles (BENCH_CPU_PROFILE, BENCH_HEAP_PROFILE, BENCH_HEAP_SNAPSHOT) or times its loop (BENCH_LOOP_DELAY) from here on.
    if (['BENCH_CPU_PROFILE', 'BENCH_HEAP_PROFILE', 'BENCH_HEAP_SNAPSHOT', 'BENCH_LOOP_DELAY'].some((name) => process.env[name])) process.kill(server.pid, 'SIGUSR2');
    const countsBefore = await serverCounts(server.url);
    [ours, bare, raw] = await interleaved(
      [{ url: server.url, pid: server.pid, command: mix }, ...baselines.map((baseline) => ({ url: baseline.url, pid: baseline.pid, command: echoOf(baseline.url) }))],
      SECONDS,
    );
    ours.counts = countsBetween(countsBefore, await serverCounts(server.url));
  } finally {
    for (const baseline of baselines) await baseline.stop();
    await cluster.stop();
  }

  const met = ours.commands / ours.seconds >= 3000 && percentile(ours.latencies, 0.99) <= 10 && ours.failures.size === 0;
  return [
    `lobby commands through REST with session cookies: one server process, Redis, ${databaseLabel()}; ${LOBBIES} lobbies x ${MEMBERS} ` +
      `(${DRAFTED} drafted: keep-ready; ${LOBBIES - DRAFTED} gathering: vote-map flips; every ${CHAT_EVERY}th command a chat), ` +
      `${IN_FLIGHT} requests in flight over kept-alive node:http; after ${WARM_UP_S} s warm-up (baselines ${BASELINE_WARM_UP_S} s), ${SECONDS} s each, the three servers driven in turn ${SLICE_S} s at a time`,
    setup,
    describeRun('league', ours),
    describeStoreCalls(ours),
    describeGc(ours),
    describeRun('baseline: the same native command routes on uWS, cookie read, no work (bench/rest-bare-server.ts)', bare),
    describeRun('baseline: raw uWS, cookie read and body parsed, no work (bench/rest-raw-server.ts)', raw),
    ...rawRatios(ours, raw),
    `  target >= 3,000 commands/s with p99 <= 10 ms, nothing refused: ${met ? 'MET' : 'NOT MET'}`,
    `  machine: ${cpus().length} cores, load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} at the end (server, driver and stores share the cores)`,
  ];
}
