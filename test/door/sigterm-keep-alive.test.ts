import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServerProcess, type SpawnedServer } from '../support/spawn-server';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/*
 * Issue 21 item 5: SIGTERM while clients keep connections alive and send continuously. Every
 * request the server received is answered (those in flight finish; new ones on kept connections
 * get 503 with Connection: close); none is reset. A new connection after the listener closed is
 * refused (ECONNREFUSED): that request never reached the server.
 */
const DRAIN_MS = 3_000;
const SENDERS = 12;
/**
 * Both doors, with and without a store behind them: express, a native public read, an express read
 * of Postgres; and what lies outside the contracts: a native page and asset, the API document, a
 * path no route matches (its answer, when served, is 404).
 */
const TARGETS: Array<{ method: string; path: string; body?: string; served?: number }> = [
  { method: 'GET', path: '/healthz' },
  { method: 'GET', path: '/api/public/summary' },
  { method: 'GET', path: '/api/users/leaderboard' },
  { method: 'GET', path: '/' },
  { method: 'GET', path: '/assets/app.js' },
  { method: 'GET', path: '/openapi.json' },
  { method: 'GET', path: '/docs' },
  { method: 'GET', path: '/no/such/path', served: 404 },
];

let database: TestDatabase;
let server: SpawnedServer;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(join(tmpdir(), 'league-sigterm-'));
  server = await startServerProcess({
    NODE_ENV: 'test', DATA_DIR: dataDir, SEED_DEMO_DATA: 'never', LOG_LEVEL: 'warn',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    DATABASE_URL: database.url,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `sigterm${randomBytes(4).toString('hex')}:` } : {}),
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
  });
}, 90_000);
afterAll(async () => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

type Result = { status: number; connection?: string; served?: number } | { error: string };

function send(agent: Agent, target: (typeof TARGETS)[number]): Promise<Result> {
  return new Promise((resolve) => {
    const url = new URL(target.path, server.url);
    const req = request(url, { method: target.method, agent, headers: target.body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(target.body) } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, served: target.served }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end(target.body);
  });
}

it('answers every request it received on kept-alive connections during a SIGTERM, and resets none', async () => {
  let exited = false;
  void server.exited.then(() => (exited = true));
  const results: Result[] = [];
  let sent = 0;
  let signal: () => void;
  const enoughSent = new Promise<void>((resolve) => (signal = resolve));
  const senders = Array.from({ length: SENDERS }, async (_, i) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // Until the process is gone: a refused connection means the listener is closed, yet kept ones may still be open.
      while (!exited) {
        const result = await send(agent, TARGETS[(i + sent) % TARGETS.length]);
        results.push(result);
        if (++sent === SENDERS * 20) signal();
        if ('error' in result && result.error === 'ECONNREFUSED') break;
        // A client's think time: some connections are idle, others busy, when the signal comes.
        await new Promise((resolve) => setTimeout(resolve, (i * 7 + sent) % 25));
      }
    } finally {
      agent.destroy();
    }
  });
  await enoughSent;
  server.child.kill('SIGTERM');
  await Promise.all(senders);
  await server.exited;

  const errors = results.flatMap((r) => ('error' in r ? [r.error] : []));
  expect(errors.filter((e) => e !== 'ECONNREFUSED')).toEqual([]);
  // Each answered what it answers when served (2xx, or its own status), or 503.
  const unexpected = results.flatMap((r) => ('status' in r && !(r.status === 503 || (r.served === undefined ? r.status >= 200 && r.status < 300 : r.status === r.served)) ? [r.status] : []));
  expect(unexpected).toEqual([]);
  // Some were answered 503 on their kept connection, each telling the client to close it.
  const refused = results.filter((r) => 'status' in r && r.status === 503);
  expect(refused.length).toBeGreaterThan(0);
  expect(refused.every((r) => 'connection' in r && r.connection === 'close')).toBe(true);
}, 60_000);
