import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { poll } from '../../support/poll';
import { spawnServerProcess, startServerProcess } from '../../support/spawn-server';

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'league-proc-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('the server process', () => {
  it('a bad configuration value stops start-up with one line naming the variable', async () => {
    const { exited, output } = spawnServerProcess({ PORT: 'eighty', DATA_DIR: await dataDir() });
    expect(await exited).toBe(2);
    expect(output().trim().split('\n').filter((l) => !l.includes('npm warn'))).toEqual([
      'invalid configuration: PORT: PORT must be a port number',
    ]);
  });

  it('refuses to run on the uWS JavaScript fallback, saying why', async () => {
    const { exited, output } = spawnServerProcess({ UWS_USE_FALLBACK: '1', DATA_DIR: await dataDir() });
    expect(await exited).toBe(1);
    expect(output()).toContain('JavaScript fallback');
  });

  it('comes up on embedded defaults with demo data, and shuts down cleanly on SIGTERM', async () => {
    const server = await startServerProcess({ DATA_DIR: await dataDir(), LOG_LEVEL: 'info' }, 90_000);
    const summary = await fetch(`${server.url}/api/public/summary`).then((r) => r.json());
    expect(summary.stats.total_users).toBeGreaterThan(0);
    expect(summary.stats.total_matches).toBeGreaterThan(0);
    expect(server.output()).toContain('"build":"native"');
    expect(server.output()).toContain('"database":"embedded"');
    expect(server.output()).toContain('"liveStore":"memory"');
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.output()).toContain('"msg":"closed"');
  });

  it('gives back the young generation start-up grew once the server has idled', async () => {
    const server = await startServerProcess({ DATA_DIR: await dataDir() }, 90_000);
    try {
      const newSpace = async () => {
        const metrics = await fetch(`${server.url}/metrics`).then((r) => r.text());
        return Number(/^nodejs_heap_space_size_total_bytes\{space="new"\} (\d+)$/m.exec(metrics)?.[1]);
      };
      // V8 shrinks it only once its last 5 s of allocation were quiet (src/startup-memory.ts).
      const shrunk = await poll(newSpace, (bytes) => bytes <= 4 * 1024 * 1024, { withinMs: 30_000, everyMs: 1_000, what: 'a young generation of 4 MB or less' });
      expect(shrunk).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('a second instance on the same data dir without Redis refuses to start', async () => {
    const dir = await dataDir();
    const first = await startServerProcess({ DATA_DIR: dir }, 90_000);
    try {
      const second = spawnServerProcess({ DATA_DIR: dir, PORT: '0' });
      expect(await second.exited).toBe(1);
      expect(second.output()).toMatch(/REDIS_URL/);
    } finally {
      await first.stop();
    }
  });
});
