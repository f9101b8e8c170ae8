import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { LobbyDocument, StoredLobby } from '../src/db/lobby-record-repository';
import type { UserRecord } from '../src/db/user-record';
import { startLobbyFeed, type LobbyBroadcast } from '../src/engine/lobby-broadcast';
import { LobbyEngine } from '../src/engine/lobby-engine';
import type { Caller } from '../src/identity/caller';
import { connectRedisLiveStore } from '../src/live/redis-live-store';
import { deleteKeysWithPrefix } from '../test/support/redis-prefix';

/*
 * Lobby commands per second through the engine (load, rule, compare-and-set, index, deadline,
 * broadcast payload) against a real Redis. Postgres is not on this path (only phase changes and
 * reports are written there), so the durable ports are in-memory stand-ins here.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECONDS = Math.min(10, Number(process.env.BENCH_SECONDS ?? 8));
const LOBBIES = Number(process.env.BENCH_LOBBIES ?? 200);
/** Enough concurrency to keep Redis and the event loop busy; more only queues (latency = actors / rate). */
const ACTORS = Number(process.env.BENCH_ACTORS ?? 16);
const PLAYERS = 12;

const user = (id: number): UserRecord => ({
  id, platformId: String(76561198000000000 + id), username: `bench${id}`, avatarUrl: null, elo: 1000 + (id % 97), matchesPlayed: 0,
  wins: 0, losses: 0, isAdmin: false, chatAccountId: null, chatUsername: null, customAvatarUrl: null, nameColor: null,
  profileFrame: null, createdAt: new Date(0), lastLoginAt: null, lastSeenAt: null,
});
const caller = (u: UserRecord): Caller => ({ kind: 'session', user: u, sessionId: `bench-${u.id}` });

function memoryRecords() {
  const rows = new Map<string, StoredLobby>();
  return {
    async save(doc: LobbyDocument) {
      const old = rows.get(doc.code);
      if (old && old.version >= doc.version) return false;
      rows.set(doc.code, { ...doc, createdAt: new Date(), updatedAt: new Date() });
      return true;
    },
    load: async (code: string) => rows.get(code) ?? null,
    loadOpen: async () => [],
  };
}

/** Counts pushes arriving from the lobby feed, so the payload is built and published as in production but goes nowhere. */
const counting = { updates: 0 };
const broadcast: LobbyBroadcast = { lobbyUpdated: () => void counting.updates++, lobbyChat: () => undefined, lobbiesChanged: () => undefined };


interface Table {
  code: string;
  maps: string[];
  members: UserRecord[];
  seated: UserRecord[];
  votes: Map<number, string>;
}

/** A lobby in drafting with 11 of 12 seats taken: ready never completes, so it stays put. */
async function setUp(engine: LobbyEngine, index: number): Promise<Table> {
  const members = Array.from({ length: PLAYERS }, (_, i) => user(index * PLAYERS + i + 1));
  const { code, lobby } = await engine.create(caller(members[0]), { format: '6v6' });
  for (const m of members.slice(1)) await engine.command(code, { type: 'join' }, caller(m));
  let state = await engine.command(code, { type: 'start-draft' }, caller(members[0]));
  for (let pick = 0; pick < PLAYERS - 3; pick++) {
    const team = state.teams.red.filter((s) => s.userId).length <= state.teams.blu.filter((s) => s.userId).length ? 'red' : 'blu';
    const captain = members.find((m) => m.id === state.captains[team])!;
    state = await engine.command(code, { type: 'pick', userId: state.pool[0] }, caller(captain));
  }
  const seatedIds = new Set([...state.teams.red, ...state.teams.blu].flatMap((s) => (s.userId ? [s.userId] : [])));
  return { code, maps: lobby.map_pool, members, seated: members.filter((m) => seatedIds.has(m.id)), votes: new Map() };
}

const pickOne = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)];

/** One command of the mix: half map votes (always a change of vote), half ready flags. */
async function oneCommand(engine: LobbyEngine, table: Table): Promise<void> {
  if (Math.random() < 0.5) {
    const member = pickOne(table.members);
    const map = pickOne(table.maps.filter((m) => m !== table.votes.get(member.id)));
    table.votes.set(member.id, map);
    await engine.command(table.code, { type: 'vote-map', map }, caller(member));
  } else {
    await engine.command(table.code, { type: 'ready' }, caller(pickOne(table.seated)));
  }
}

async function run(engine: LobbyEngine, tables: Table[], seconds: number, latencies: number[] | null): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let count = 0;
  await Promise.all(
    Array.from({ length: ACTORS }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        await oneCommand(engine, pickOne(tables));
        latencies?.push(performance.now() - started);
        count++;
      }
    }),
  );
  return count;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export async function benchLobbyCommands(): Promise<string[]> {
  const prefix = `bench:lobby:${randomUUID()}:`;
  const live = await connectRedisLiveStore({ url: REDIS_URL, prefix });
  const engine = new LobbyEngine({
    live, records: memoryRecords(), clock: Date.now,
    matches: { recordMatch: async () => Promise.reject(new Error('no reports in this benchmark')) },
    bans: { activeBan: async () => null },
    logger: { error: (d, m) => console.error(m, d), warn: () => undefined },
  });
  const stopFeed = await startLobbyFeed(live, broadcast);
  try {
    const setupStarted = performance.now();
    const tables: Table[] = [];
    for (let i = 0; i < LOBBIES; i += 20) {
      tables.push(...(await Promise.all(Array.from({ length: Math.min(20, LOBBIES - i) }, (_, j) => setUp(engine, i + j)))));
    }
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    await run(engine, tables, 1, null); // warm-up: JIT, connections
    const latencies: number[] = [];
    counting.updates = 0;
    const started = performance.now();
    const count = await run(engine, tables, SECONDS, latencies);
    const elapsed = (performance.now() - started) / 1000;
    await engine.idle();
    latencies.sort((a, b) => a - b);
    const rate = count / elapsed;
    const [p50, p99] = [percentile(latencies, 50), percentile(latencies, 99)];
    const met = rate >= 3000 && p99 < 10;
    return [
      `lobby commands through the engine, Redis at ${REDIS_URL}, ${LOBBIES} lobbies x ${PLAYERS} players (6v6 drafting), ` +
        `${ACTORS} concurrent actors, ${SECONDS} s after 1 s warm-up:`,
      `  setup: ${LOBBIES * (PLAYERS + 8)} commands in ${setupSeconds.toFixed(1)} s (create, joins, draft)`,
      `  mix vote-map 50% / ready 50%: ${count.toLocaleString('en')} commands, ${Math.round(rate).toLocaleString('en')}/s, ` +
        `p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, pushes ${counting.updates.toLocaleString('en')}`,
      `  target >= 3,000/s and p99 < 10 ms: ${met ? 'MET' : 'NOT MET'}`,
      `  command: npm run bench -- lobby   (BENCH_SECONDS, BENCH_LOBBIES, BENCH_ACTORS, REDIS_URL to vary)`,
    ];
  } finally {
    await stopFeed();
    await live.close();
    await deleteKeysWithPrefix(REDIS_URL, prefix);
  }
}
