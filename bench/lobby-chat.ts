import { cpus, loadavg } from 'node:os';
import type { LobbyChatMessage, LobbyDetail } from '../schema/lobby';
import { cpuMs, getOk, httpRequest, keepAliveAgent, postOk } from './http-client';
import { SUBSCRIBERS, Subscribers } from './realtime-fanout-run';
import { databaseLabel, startBareServers, startLeagueCluster, type BenchProcess } from './realtime-processes';

/*
 * Chat into one lobby watched by SUBSCRIBERS raw socket.io clients (in processes of their own):
 * IN_FLIGHT chat commands at once through REST with session cookies for SECONDS, then the rate at
 * which messages were fully delivered (sent / time until the last of messages x SUBSCRIBERS frames
 * arrived). The baseline is a bare socket.io-on-uWS server broadcasting the same message to the
 * same number of subscribers in the same run (bench/realtime-bare-server.ts, POST /chat). Once on
 * one instance, once on two (subscribers on one, chat sent to the other; the bare pair shares
 * Redis through socket.io's Redis adapter).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const IN_FLIGHT = 16;
const MEMBERS = 12;
const WARM_UP = 100;
const DRAIN_MS = 20_000;

interface ChatRun {
  sent: number;
  refused: number;
  delivered: number;
  perS: number;
  cpuMsEach: number;
}

const agent = keepAliveAgent(IN_FLIGHT);

/** Sends chat in closed loops, then waits for every frame; the rate counts until the last one arrived. */
/** `profiled`: the league server (bench/serve.ts) to signal when BENCH_CPU_PROFILE is set. */
async function measure(subscribers: Subscribers, pid: number, send: (n: number) => Promise<number>, profiled = false): Promise<ChatRun> {
  for (let i = 0; i < WARM_UP; i++) await send(i);
  const before = await waitForChats(subscribers, WARM_UP * SUBSCRIBERS);
  // bench/serve.ts profiles from here on when BENCH_CPU_PROFILE is set (the one-instance run's server).
  if (profiled && process.env.BENCH_CPU_PROFILE) process.kill(pid, 'SIGUSR2');
  const cpuBefore = cpuMs(pid);
  const started = performance.timeOrigin + performance.now();
  const until = performance.now() + SECONDS * 1000;
  let sent = 0;
  let refused = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < until) {
        const status = await send(sent++);
        if (status !== 200) refused++;
      }
    }),
  );
  const accepted = sent - refused;
  const after = await waitForChats(subscribers, (WARM_UP + accepted) * SUBSCRIBERS);
  return {
    sent,
    refused,
    delivered: after.chats - before.chats,
    perS: accepted / ((after.chatLast - started) / 1000),
    cpuMsEach: (cpuMs(pid) - cpuBefore) / accepted,
  };
}

async function waitForChats(subscribers: Subscribers, count: number): Promise<{ chats: number; chatLast: number }> {
  const deadline = Date.now() + DRAIN_MS;
  for (;;) {
    const totals = await subscribers.totals();
    if (totals.chats >= count || Date.now() > deadline) return totals;
    await new Promise((r) => setTimeout(r, 20));
  }
}

function describe(label: string, run: ChatRun): string {
  const expected = (run.sent - run.refused) * SUBSCRIBERS;
  return (
    `  ${label}: ${Math.round(run.perS).toLocaleString('en')} chat commands/s fully delivered, server CPU ${run.cpuMsEach.toFixed(3)} ms each; ` +
    `${run.delivered.toLocaleString('en')} of ${expected.toLocaleString('en')} frames delivered${run.refused ? `, ${run.refused} refused` : ''}`
  );
}

/** Chat on a league cluster of `count` instances: subscribers on the first, chat sent to the last. */
async function leagueChat(count: number, redisUrl: string): Promise<{ run: ChatRun; sample: LobbyChatMessage }> {
  const cluster = await startLeagueCluster(count, { redisUrl });
  try {
    const watched = cluster.instances[0];
    const server = cluster.instances[count - 1];
    const members: Array<{ cookie: string }> = [];
    for (let i = 0; i < MEMBERS; i++) members.push(await cluster.login());
    const created = (await postOk(agent, `${server.url}/api/lobbies/`, { format: '6v6', name: 'chat bench' }, members[0].cookie)) as { code: string; lobby: LobbyDetail };
    for (const member of members.slice(1)) await postOk(agent, `${server.url}/api/lobbies/${created.code}/join`, {}, member.cookie);
    const subscribers = await Subscribers.start(watched.url, created.code);
    try {
      const run = await measure(subscribers, server.pid, async (n) => {
        const answer = await httpRequest(agent, 'POST', `${server.url}/api/lobbies/${created.code}/chat`, {
          body: { message: `message ${n}` },
          cookie: members[n % MEMBERS].cookie,
        });
        return answer.status;
      }, count === 1);
      // The baseline broadcasts a message just like the league's (same user, same length).
      const sample = ((await getOk(agent, `${server.url}/api/lobbies/${created.code}/chat`)) as { messages: LobbyChatMessage[] }).messages.at(-1)!;
      return { run, sample };
    } finally {
      subscribers.stop();
    }
  } finally {
    await cluster.stop();
  }
}

/** The same on `count` bare servers (two share Redis through the plain socket.io Redis adapter). */
async function bareChat(count: number, redisUrl: string, message: LobbyChatMessage): Promise<ChatRun> {
  const bare: BenchProcess[] = await startBareServers(count, count > 1 ? { redisUrl } : {});
  try {
    const subscribers = await Subscribers.start(bare[0].url, 'CHAT01');
    try {
      const server = bare[count - 1];
      return await measure(subscribers, server.pid, async () => (await httpRequest(agent, 'POST', `${server.url}/chat`, { body: { code: 'CHAT01', message } })).status);
    } finally {
      subscribers.stop();
    }
  } finally {
    await Promise.all(bare.map((server) => server.stop()));
  }
}

export async function benchLobbyChat(): Promise<string[]> {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl || !process.env.DATABASE_URL) return ['chat to 500 subscribers: skipped (needs REDIS_URL and DATABASE_URL)'];
  const lines = [
    `chat into one lobby watched by ${SUBSCRIBERS} sockets: REST with session cookies, ${IN_FLIGHT} in flight, ${SECONDS} s; Redis, ${databaseLabel()}`,
  ];
  for (const count of [1, 2]) {
    const { run: ours, sample } = await leagueChat(count, redisUrl);
    const baseline = await bareChat(count, redisUrl, sample);
    const ratio = ours.perS / baseline.perS;
    const complete = ours.delivered === (ours.sent - ours.refused) * SUBSCRIBERS && ours.refused === 0;
    const where = count === 1 ? 'one instance' : 'two instances (subscribers on A, chat sent to B)';
    lines.push(
      `  ${where}:`,
      describe('  league (POST /api/lobbies/:code/chat)', ours),
      describe('  baseline: bare socket.io on uWS, POST /chat -> io.to(room).emit', baseline),
      `    ratio ${ratio.toFixed(2)}x (target >= 0.6x) ${ratio >= 0.6 ? 'MET' : 'NOT MET'}; every message to all ${SUBSCRIBERS}: ${complete ? 'yes' : 'NO'}`,
    );
  }
  lines.push(`  machine: ${cpus().length} cores, load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} at the end`);
  return lines;
}
