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
 * same number of subscribers in the same run (bench/realtime-bare-server.ts, POST /chat).
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
async function measure(subscribers: Subscribers, pid: number, send: (n: number) => Promise<number>): Promise<ChatRun> {
  for (let i = 0; i < WARM_UP; i++) await send(i);
  const before = await waitForChats(subscribers, WARM_UP * SUBSCRIBERS);
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

export async function benchLobbyChat(): Promise<string[]> {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl || !process.env.DATABASE_URL) return ['chat to 500 subscribers: skipped (needs REDIS_URL and DATABASE_URL)'];
  const cluster = await startLeagueCluster(1, { redisUrl });
  let ours: ChatRun;
  let sample: LobbyChatMessage;
  try {
    const [server] = cluster.instances;
    const members: Array<{ cookie: string }> = [];
    for (let i = 0; i < MEMBERS; i++) members.push(await cluster.login());
    const created = (await postOk(agent, `${server.url}/api/lobbies/`, { format: '6v6', name: 'chat bench' }, members[0].cookie)) as { code: string; lobby: LobbyDetail };
    for (const member of members.slice(1)) await postOk(agent, `${server.url}/api/lobbies/${created.code}/join`, {}, member.cookie);
    const subscribers = await Subscribers.start(server.url, created.code);
    try {
      ours = await measure(subscribers, server.pid, async (n) => {
        const answer = await httpRequest(agent, 'POST', `${server.url}/api/lobbies/${created.code}/chat`, {
          body: { message: `message ${n}` },
          cookie: members[n % MEMBERS].cookie,
        });
        return answer.status;
      });
      // The baseline broadcasts a message just like the league's (same user, same length).
      sample = ((await getOk(agent, `${server.url}/api/lobbies/${created.code}/chat`)) as { messages: LobbyChatMessage[] }).messages.at(-1)!;
    } finally {
      subscribers.stop();
    }
  } finally {
    await cluster.stop();
  }

  const [bare]: BenchProcess[] = await startBareServers(1);
  let baseline: ChatRun;
  try {
    const subscribers = await Subscribers.start(bare.url, 'CHAT01');
    try {
      const message = sample;
      baseline = await measure(subscribers, bare.pid, async () => (await httpRequest(agent, 'POST', `${bare.url}/chat`, { body: { code: 'CHAT01', message } })).status);
    } finally {
      subscribers.stop();
    }
  } finally {
    await bare.stop();
  }
  const met = ours.perS >= 1500 && ours.delivered === (ours.sent - ours.refused) * SUBSCRIBERS && ours.refused === 0;
  return [
    `chat into one lobby watched by ${SUBSCRIBERS} sockets: REST with session cookies, ${IN_FLIGHT} in flight, ${SECONDS} s; one server process, Redis, ${databaseLabel()}`,
    describe('league (POST /api/lobbies/:code/chat)', ours),
    describe('baseline: bare socket.io on uWS, POST /chat -> io.to(room).emit', baseline),
    `  target >= 1,500 chat commands/s, every message to all ${SUBSCRIBERS}: ${met ? 'MET' : 'NOT MET'}`,
    `  machine: ${cpus().length} cores, load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} at the end`,
  ];
}
