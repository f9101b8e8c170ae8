import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { deleteKeysWithPrefix } from '../test/support/redis-prefix';
import { freePort } from '../test/support/spawn-server';

/**
 * What a benchmark's server processes get from the environment, whichever bench starts them:
 * BENCH_NODE_ARGS, Node's flags for the servers only (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof',
 * '--trace-gc-nvp'), and BENCH_SERVER_STDOUT=1, their standard output shown (what '--trace-gc' prints).
 */
export function serverLaunch(): { nodeArgs: string[]; stdout: 'inherit' | 'ignore' } {
  return {
    nodeArgs: process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
    stdout: process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore',
  };
}

export interface BenchServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** A server process for a benchmark (the client stays in the bench process); `script` for a bare baseline server. */
export async function startBenchServer(env: Record<string, string>, args: string[] = [], script = 'bench/serve.ts'): Promise<BenchServer> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? (await mkdtemp(join(tmpdir(), 'league-bench-')));
  // A Redis of the environment may be shared: the run writes under a prefix of its own, removed at stop.
  const redisUrl = env.REDIS_URL ?? process.env.REDIS_URL;
  const redisPrefix = env.REDIS_PREFIX ?? `bench${randomBytes(4).toString('hex')}:`;
  const launch = serverLaunch();
  const child: ChildProcess = spawn(process.execPath, [...launch.nodeArgs, '--import', 'tsx', script, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, REDIS_PREFIX: redisPrefix, ...env },
    stdio: ['ignore', launch.stdout, 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (!(await fetch(`${url}/healthz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('bench server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid!,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      if (!env.DATA_DIR) await rm(dataDir, { recursive: true, force: true });
      if (redisUrl && !env.REDIS_PREFIX) await deleteKeysWithPrefix(redisUrl, redisPrefix);
    },
  };
}
