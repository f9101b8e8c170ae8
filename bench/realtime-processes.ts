import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeSteamOpenId, type FakeSteamOpenId } from '../test/fakes/fake-steam-openid';
import { loginAs } from '../test/support/login';
import { deleteKeysWithPrefix } from '../test/support/redis-prefix';
import { createTestDatabase, type TestDatabase } from '../test/support/test-database';
import { freePort } from '../test/support/spawn-server';
import { serverLaunch } from './bench-server';

/** Sockets by the ten thousand need descriptors; the spawned processes raise their own limit. */
const FD_LIMIT = 65_536;

export interface BenchProcess {
  url: string;
  pid: number;
  /** Resident set size of the process now, in MB. */
  rssMb(): number;
  stop(): Promise<void>;
}


/**
 * `node --import tsx <script>` under `ulimit -n`, answering /healthz before this resolves. It
 * inherits this process's environment except REDIS_URL/REDIS_PREFIX, which only `env` may set.
 */
export async function startProcess(script: string, env: Record<string, string>): Promise<BenchProcess> {
  const port = await freePort();
  const inherited = { ...process.env };
  delete inherited.REDIS_URL;
  delete inherited.REDIS_PREFIX;
  const launch = serverLaunch();
  const command = `ulimit -n ${FD_LIMIT} 2>/dev/null || ulimit -n $(ulimit -Hn); exec "${process.execPath}" ${launch.nodeArgs.join(' ')} --import tsx ${script}`;
  const child: ChildProcess = spawn('bash', ['-c', command], {
    env: { ...inherited, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env, PORT: String(port) },
    stdio: ['ignore', launch.stdout, 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (!(await fetch(`${url}/healthz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${script} did not start`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const pid = child.pid!;
  return {
    url,
    pid,
    rssMb: () => rssMb(pid),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

export interface LeagueCluster {
  instances: BenchProcess[];
  /** A logged-in user's `league_session=...` cookie (platform ids are made up per run). */
  login(): Promise<{ cookie: string; userId: number }>;
  stop(): Promise<void>;
}

/**
 * `count` league server processes sharing one database and, for more than one, one Redis (with a
 * fresh key prefix); logins go through a fake identity provider in this process.
 */
export async function startLeagueCluster(count: number, options: { redisUrl?: string } = {}): Promise<LeagueCluster> {
  if (count > 1 && !options.redisUrl) throw new Error('several instances need REDIS_URL');
  const provider: FakeSteamOpenId = await startFakeSteamOpenId();
  const dataDir = await mkdtemp(join(tmpdir(), 'league-bench-rt-'));
  // Several processes need a real Postgres to share; one instance may embed its own.
  const database: TestDatabase | null = process.env.DATABASE_URL ? await createTestDatabase() : null;
  const redisPrefix = `bench${randomBytes(4).toString('hex')}:`;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    STEAM_OPENID_URL: provider.url,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    SEED_DEMO_DATA: 'never',
    // A few members drive the fan-out and the chat benchmark as fast as the server takes them: far
    // past the per-user limits (still checked on every command, so their cost is measured).
    COMMAND_RATE_LIMIT: '9999999',
    CHAT_RATE_LIMIT: '9999999',
    // Its 500 subscribers all come from 127.0.0.1.
    SOCKETS_PER_ADDRESS: '9999999',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl, REDIS_PREFIX: redisPrefix } : {}),
  };
  const instances: BenchProcess[] = [];
  try {
    for (let i = 0; i < count; i++) instances.push(await startProcess('bench/serve.ts', env));
  } catch (error) {
    await Promise.all(instances.map((instance) => instance.stop()));
    await provider.close();
    throw error;
  }
  let nextUser = 0;
  return {
    instances,
    async login() {
      nextUser += 1;
      // 17 digits as the platform's ids: the process, then up to 10,000 users of this run.
      const platformId = `765611990${String(process.pid % 10_000).padStart(4, '0')}${String(nextUser).padStart(4, '0')}`;
      const loggedIn = await loginAs(instances[0], provider, platformId);
      return { cookie: loggedIn.cookie, userId: loggedIn.user.id };
    },
    async stop() {
      await Promise.all(instances.map((instance) => instance.stop()));
      await provider.close();
      // A busy machine can run the drop past the test helper's statement timeout: the figures stand.
      await database?.drop().catch((error: unknown) => console.error(`  (could not drop the bench database: ${error instanceof Error ? error.message : String(error)})`));
      await rm(dataDir, { recursive: true, force: true });
      // The Redis may be shared: leave nothing of the run behind (sessions would live 30 days).
      if (options.redisUrl) await deleteKeysWithPrefix(options.redisUrl, redisPrefix);
    },
  };
}

/** Which database the league servers of a benchmark use, for its report. */
export function databaseLabel(): string {
  return process.env.DATABASE_URL ? 'Postgres (DATABASE_URL)' : 'embedded PGlite inside the server process (no DATABASE_URL)';
}

export async function startBareServers(count: number, options: { redisUrl?: string } = {}): Promise<BenchProcess[]> {
  const env: Record<string, string> = options.redisUrl
    ? { REDIS_URL: options.redisUrl, REDIS_PREFIX: `barebench${randomBytes(4).toString('hex')}:` }
    : {};
  const servers: BenchProcess[] = [];
  for (let i = 0; i < count; i++) servers.push(await startProcess('bench/realtime-bare-server.ts', env));
  return servers;
}
