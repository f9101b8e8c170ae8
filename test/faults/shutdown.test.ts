import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwnRedis, type OwnRedis } from '../support/own-redis';
import { startServerProcess, type SpawnedServer } from '../support/spawn-server';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { figure } from '../support/timing';

const DRAIN_MS = 2_000;

function connectionRefused(url: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('SIGTERM with requests stuck on a silent Postgres and Redis paused', () => {
  let redis: OwnRedis;
  let target: TestDatabase;
  let proxy: TcpProxy;
  let server: SpawnedServer;
  let dataDir: string;

  beforeAll(async () => {
    redis = await startOwnRedis();
    target = await createTestDatabase();
    proxy = await startTcpProxy(target.url);
    dataDir = await mkdtemp(join(tmpdir(), 'league-shutdown-'));
    server = await startServerProcess({
      NODE_ENV: 'test', DATA_DIR: dataDir, SEED_DEMO_DATA: 'never', LOG_LEVEL: 'warn',
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      DATABASE_URL: proxy.url, DATABASE_TIMEOUT_MS: '60000',
      REDIS_URL: redis.url, REDIS_PREFIX: 'shutdown:',
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    });
  }, 90_000);
  afterAll(async () => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    redis?.resume();
    proxy?.restore();
    await proxy?.close();
    await target?.drop();
    await redis?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stops accepting at once, answers what is left 503 after the drain time, and exits within drain + 5 s', async () => {
    proxy.silence();
    const stuck = Array.from({ length: 5 }, () => fetch(`${server.url}/api/users/leaderboard`).then((r) => r.status, () => 0));
    await new Promise((r) => setTimeout(r, 300));
    redis.pause();
    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    // A new connection is refused; a request on a kept-alive one is answered 503.
    expect(await connectionRefused(new URL(server.url))).toBe(true);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(503);
    expect(await Promise.all(stuck)).toEqual([503, 503, 503, 503, 503]);
    const code = await server.exited;
    const exitedAfter = performance.now() - signalledAt;
    figure(`SIGTERM (SHUTDOWN_DRAIN_MS=${DRAIN_MS}, Postgres silent, Redis paused): exited after`, exitedAfter);
    expect(exitedAfter).toBeLessThan(DRAIN_MS + 5_000);
    expect(code).not.toBeNull();
  }, 30_000);
});
