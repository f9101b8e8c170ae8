import { cpus, loadavg } from 'node:os';
import { request } from 'node:http';
import { createTestDatabase } from '../test/support/test-database';
import { startBenchServer } from './bench-server';
import { getOk, httpRequest, keepAliveAgent, postOk } from './http-client';

/*
 * Tournaments through the door users use: one server process (Postgres of DATABASE_URL, Redis of
 * REDIS_URL), every user logged in through the dev login (GET /auth/dev, session cookie), ultiduo
 * teams (two players: the smallest format) founded by their leader, who invites the second player,
 * who accepts; the leader enters the team, the admin starts, then every ready match is reported by
 * the home leader and confirmed by the away leader (home always wins), reading the bracket for
 * ready matches, until none is ready. Timed and counted: the play phase only (bracket reads,
 * reports, confirms), IN_FLIGHT matches at once. Statements are the server's own count:
 * db_query_duration_seconds_count of /metrics (summed over labels), read before and after.
 * Beside it, in the same run on the same server, lobby join/leave commands through REST, with the
 * same clock and the same statement count.
 */
const SIZES = [32, 256];
const IN_FLIGHT = 8;
const LOBBY_COMMANDS = 400;

const agent = keepAliveAgent(IN_FLIGHT * 2);

interface User {
  cookie: string;
  id: number;
}

interface Match {
  id: number;
  status: string;
  home: { team_id: number | null };
  away: { team_id: number | null };
}

function devLogin(url: string, name: string, admin = false): Promise<User> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/auth/dev?name=${encodeURIComponent(name)}${admin ? '&admin=1' : ''}`, { agent });
    req.on('error', reject);
    req.on('response', (response) => {
      response.resume();
      response.on('end', async () => {
        const setCookie = response.headers['set-cookie']?.[0];
        if (response.statusCode !== 302 || !setCookie) return reject(new Error(`dev login answered ${response.statusCode} (DEV_LOGIN=1?)`));
        const cookie = setCookie.split(';')[0];
        try {
          const me = (await getOk(agent, `${url}/api/users/me`, cookie)) as { id: number };
          resolve({ cookie, id: me.id });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.end();
  });
}

async function inBatches<T>(count: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += size) out.push(...(await Promise.all(Array.from({ length: Math.min(size, count - i) }, (_, j) => make(i + j)))));
  return out;
}

/** Database statements the server has run so far: db_query_duration_seconds_count summed over labels. */
async function statements(url: string): Promise<number> {
  const answer = await httpRequest(agent, 'GET', `${url}/metrics`);
  if (answer.status !== 200) throw new Error(`/metrics answered ${answer.status}`);
  let total = 0;
  for (const line of answer.text.split('\n')) if (line.startsWith('db_query_duration_seconds_count')) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  return total;
}

interface Figure {
  label: string;
  results: number;
  ms: number;
  statements: number;
  requests: number;
  failures: string[];
  /** Of ms: the bracket reads between passes, and the mean report+confirm pair (tournaments only). */
  split?: { bracketMs: number; bracketReads: number; pairMs: number };
}

async function playTournament(url: string, admin: User, teams: number, run: string): Promise<{ setup: string; figure: Figure }> {
  const setupStarted = performance.now();
  const leaders = new Map<number, User>();
  await inBatches(teams, IN_FLIGHT, async (i) => {
    const leader = await devLogin(url, `${run}l${teams}_${i}`);
    const member = await devLogin(url, `${run}m${teams}_${i}`);
    const team = (await postOk(agent, `${url}/api/teams`, { name: `Bench ${run} ${teams} ${i}`, tag: `T${teams % 100}${i}`.slice(0, 6) }, leader.cookie)) as { id: number };
    const invite = (await postOk(agent, `${url}/api/teams/${team.id}/invites`, { user_id: member.id }, leader.cookie)) as { id: number };
    await postOk(agent, `${url}/api/teams/invites/${invite.id}/accept`, {}, member.cookie);
    leaders.set(team.id, leader);
  });
  const tournament = (await postOk(
    agent,
    `${url}/api/admin/tournaments`,
    { name: `Bench Cup ${teams}`, format: 'ultiduo', kind: 'double_elimination', max_teams: teams, best_of: 1, starts_at: new Date(Date.now() + 3_600_000).toISOString() },
    admin.cookie,
  )) as { id: number };
  const path = `${url}/api/tournaments/${tournament.id}`;
  await inBatches(teams, IN_FLIGHT, async (i) => {
    const [teamId, leader] = [...leaders][i];
    await postOk(agent, `${path}/entries`, { team_id: teamId }, leader.cookie);
  });
  await postOk(agent, `${url}/api/admin/tournaments/${tournament.id}/start`, {}, admin.cookie);
  const setup = `  setup of ${teams} teams (${teams * 2} dev logins, team founded, invite, accept, entry; admin start): ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`;

  const failures: string[] = [];
  let results = 0;
  let requests = 0;
  let bracketMs = 0;
  let pairMs = 0;
  const before = await statements(url);
  const started = performance.now();
  for (;;) {
    const readAt = performance.now();
    const bracket = (await getOk(agent, `${path}/bracket`)) as { stages: { rounds: { matches: Match[] }[] }[] };
    bracketMs += performance.now() - readAt;
    requests += 1;
    const ready = bracket.stages.flatMap((s) => s.rounds.flatMap((r) => r.matches)).filter((m) => m.status === 'ready');
    if (ready.length === 0) break;
    await inBatches(ready.length, IN_FLIGHT, async (i) => {
      const match = ready[i];
      const pairAt = performance.now();
      const report = await httpRequest(agent, 'POST', `${path}/matches/${match.id}/report`, { body: { home_score: 1, away_score: 0 }, cookie: leaders.get(match.home.team_id!)!.cookie });
      const confirm = await httpRequest(agent, 'POST', `${path}/matches/${match.id}/confirm`, { cookie: leaders.get(match.away.team_id!)!.cookie });
      pairMs += performance.now() - pairAt;
      requests += 2;
      if (report.status !== 200) failures.push(`report ${report.status} ${report.text.slice(0, 120)}`);
      else if (confirm.status !== 200) failures.push(`confirm ${confirm.status} ${confirm.text.slice(0, 120)}`);
      else results += 1;
    });
    if (failures.length > 0) break;
  }
  const ms = performance.now() - started;
  const after = await statements(url);
  const done = (await getOk(agent, path)) as { status: string };
  if (done.status !== 'completed') failures.push(`tournament ended ${done.status}, not completed`);
  return { setup, figure: {
      label: `${teams}-team double elimination`, results, ms, statements: after - before, requests, failures,
      split: { bracketMs, bracketReads: requests - 2 * results, pairMs: pairMs / Math.max(1, results) },
    },
  };
}

/** LOBBY_COMMANDS join/leave commands on one ultiduo-sized 6v6 lobby, the same IN_FLIGHT at once. */
async function lobbyCommands(url: string, run: string): Promise<Figure> {
  const users = await inBatches(IN_FLIGHT + 1, IN_FLIGHT, (i) => devLogin(url, `${run}lobby${i}`));
  const [host, ...others] = users;
  const { code } = (await postOk(agent, `${url}/api/lobbies/`, { format: '6v6', name: 'bench lobby' }, host.cookie)) as { code: string };
  const failures: string[] = [];
  let sent = 0;
  const before = await statements(url);
  const started = performance.now();
  await Promise.all(
    others.map(async (user) => {
      while (sent < LOBBY_COMMANDS) {
        sent += 2;
        for (const kind of ['join', 'leave']) {
          const answer = await httpRequest(agent, 'POST', `${url}/api/lobbies/${code}/${kind}`, { body: {}, cookie: user.cookie });
          if (answer.status !== 200) failures.push(`${kind} ${answer.status} ${answer.text.slice(0, 120)}`);
        }
      }
    }),
  );
  const ms = performance.now() - started;
  const after = await statements(url);
  return { label: `lobby join/leave commands`, results: sent, ms, statements: after - before, requests: sent, failures };
}

function describe(figure: Figure, unit: string): string {
  const failed = figure.failures.length ? `; FAILED ${figure.failures.length}: ${figure.failures.slice(0, 3).join(' | ')}` : '';
  return (
    `  ${figure.label}: ${figure.results} ${unit}s in ${(figure.ms / 1000).toFixed(2)} s, ${(figure.ms / figure.results).toFixed(2)} ms/${unit}, ` +
    `${(figure.statements / figure.results).toFixed(1)} statements/${unit} (${figure.statements} statements, ${figure.requests} requests)` +
    (figure.split
      ? `; of the time ${(figure.split.bracketMs / 1000).toFixed(2)} s in ${figure.split.bracketReads} bracket reads (${(figure.split.bracketMs / figure.split.bracketReads).toFixed(1)} ms each), ` +
        `report+confirm ${figure.split.pairMs.toFixed(1)} ms a match with ${IN_FLIGHT} in flight`
      : '') +
    failed
  );
}

export async function benchTournament(): Promise<string[]> {
  if (!process.env.DATABASE_URL) return ['tournaments through REST: skipped (needs DATABASE_URL)'];
  const database = await createTestDatabase();
  try {
    const server = await startBenchServer({
      DATABASE_URL: database.url,
      SEED_DEMO_DATA: 'never',
      DEV_LOGIN: '1',
      COMMAND_RATE_LIMIT: '9999999',
      CHAT_RATE_LIMIT: '9999999',
    });
    try {
      const run = Math.random().toString(36).slice(2, 6);
      const admin = await devLogin(server.url, `${run}admin`, true);
      const lines: string[] = [
        `tournaments through REST with session cookies (dev login): one server process, ${process.env.REDIS_URL ? 'Redis, ' : ''}Postgres (DATABASE_URL); ` +
          `ultiduo teams, double elimination, best of 1, every ready match reported by the home leader and confirmed by the away leader, ` +
          `${IN_FLIGHT} matches in flight, bracket read between passes; statements = db_query_duration_seconds_count of the server's /metrics, before and after the play`,
      ];
      const figures: Figure[] = [];
      for (const teams of SIZES) {
        const { setup, figure } = await playTournament(server.url, admin, teams, run);
        lines.push(setup);
        figures.push(figure);
      }
      const lobby = await lobbyCommands(server.url, run);
      for (const figure of figures) lines.push(describe(figure, 'result'));
      lines.push(describe(lobby, 'command') + ` (same server, same run, ${IN_FLIGHT} users at once on one 6v6 lobby)`);
      const [small, large] = figures;
      const perSmall = small.statements / small.results;
      const perLarge = large.statements / large.results;
      lines.push(
        `  statements per result, ${SIZES[1]} vs ${SIZES[0]} teams: x${(perLarge / perSmall).toFixed(2)} ` +
          `(${large.results} vs ${small.results} matches, x${(large.results / small.results).toFixed(1)}; total statements x${(large.statements / small.statements).toFixed(1)}) — ` +
          `${perLarge <= perSmall * 1.25 ? 'per-result statements flat: total grows with the number of matches, not faster' : 'per-result statements GROW with the bracket: total grows faster than the matches'}`,
      );
      lines.push(`  machine: ${cpus().length} cores, load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} at the end (server, driver and stores share the cores)`);
      return lines;
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop().catch((error: unknown) => console.error(`  (could not drop the bench database: ${error instanceof Error ? error.message : String(error)})`));
  }
}
