import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { freePort } from './spawn-server';

/**
 * A redis-server of the test's own, on a free port, that the test may pause, kill, restart or
 * flush: fault tests never touch the machine's Redis. `appendonly` decides whether a restart
 * keeps the data.
 */
export interface OwnRedis {
  url: string;
  port: number;
  /** SIGSTOP: the connection stays open, nothing answers. */
  pause(): void;
  resume(): void;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port (and data directory). */
  restart(): Promise<void>;
  /** Runs one command on a fresh connection (FLUSHALL, DEBUG SLEEP, ...). */
  command(...args: string[]): Promise<unknown>;
  stop(): Promise<void>;
}

export async function startOwnRedis(options: { appendonly?: boolean } = {}): Promise<OwnRedis> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'own-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', options.appendonly ? 'yes' : 'no'];
  let child: ChildProcess;
  let exited: Promise<void>;
  const url = `redis://127.0.0.1:${port}`;

  async function launch(): Promise<void> {
    child = spawn('redis-server', args, { stdio: 'ignore' });
    exited = new Promise((resolve) => child.once('exit', () => resolve()));
    for (let i = 0; i < 100; i++) {
      if (await command('PING').then(() => true, () => false)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server on port ${port} did not start`);
  }

  async function command(...cmd: string[]): Promise<unknown> {
    const client = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 1000 } });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await client.sendCommand(cmd);
    } finally {
      client.destroy();
    }
  }

  await launch();
  return {
    url,
    port,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    async kill() {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
    },
    restart: launch,
    command,
    async stop() {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
