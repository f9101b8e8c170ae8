import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { poll } from './poll';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface SpawnedServer {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Node's arguments for the process entry, `src/start.ts`, through tsx. */
const START_ENTRY = ['--import', 'tsx', 'src/start.ts'];

/**
 * `npx tsx src/start.ts` (the process entry) as its own process (uWS allows one socket.io server per
 * process); `nodeArgs` another entry (a test's own start of src/main.ts).
 */
export function spawnServerProcess(env: Record<string, string>, nodeArgs = START_ENTRY): { child: ChildProcess; output(): string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, nodeArgs, {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** Starts a server process on a free port and waits until /healthz answers (or the process dies). */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000, nodeArgs = START_ENTRY): Promise<SpawnedServer> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const spawned = spawnServerProcess({ HOST: '127.0.0.1', ...env, PORT: String(port) }, nodeArgs);
  const url = `http://127.0.0.1:${port}`;
  let dead = false;
  spawned.exited.then(() => (dead = true));
  const state = await poll(
    async () => (dead ? 'exited' : (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) ? 'healthy' : 'starting'),
    (now) => now !== 'starting',
    { withinMs: timeoutMs, everyMs: 100, what: 'the server process healthy' },
  ).catch(() => {
    spawned.child.kill('SIGKILL');
    throw new Error(`server process did not become healthy in ${timeoutMs} ms:\n${spawned.output()}`);
  });
  if (state === 'exited') throw new Error(`server process exited during start-up:\n${spawned.output()}`);
  return {
    url,
    ...spawned,
    async stop(signal = 'SIGTERM') {
      if (!dead) spawned.child.kill(signal);
      return spawned.exited;
    },
  };
}
