import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../schema/json-depth';
import { closeAllClients, connect, type LeagueClient } from '../realtime/support/socket-client';
import { deleteKeysWithPrefix } from '../support/redis-prefix';
import { startServerProcess, type SpawnedServer } from '../support/spawn-server';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * The inputs that stopped the process (issue 21), each sent to a real server process, which must
 * then still be running and healthy. In-process, a crash would take the test runner with it.
 */
const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const nestedObject = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

let server: SpawnedServer;
let database: TestDatabase;
let dataDir: string;
const prefix = `killer-${randomBytes(4).toString('hex')}:`;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(join(tmpdir(), 'league-killer-'));
  server = await startServerProcess(
    {
      NODE_ENV: 'test', DATA_DIR: dataDir, SEED_DEMO_DATA: 'never', LOG_LEVEL: 'warn', DEV_LOGIN: '1',
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      DATABASE_URL: database.url,
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: prefix } : {}),
    },
    90_000,
  );
}, 120_000);
afterAll(async () => {
  closeAllClients();
  await server?.stop('SIGKILL');
  await database?.drop();
  if (process.env.REDIS_URL) await deleteKeysWithPrefix(process.env.REDIS_URL, prefix);
  await rm(dataDir, { recursive: true, force: true });
});

async function expectHealthy(): Promise<void> {
  expect(server.child.exitCode).toBeNull();
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
}

/** Writes one socket.io frame as is (engine.io message `4` + the socket.io packet), bypassing the client's encoder. */
function sendRawPacket(socket: LeagueClient, packet: string): void {
  (socket.io.engine as unknown as { write(data: string): void }).write(packet);
}

describe('socket frames', () => {
  it('an anonymous 10 KB frame nested 5000 deep is dropped, and the server and that socket keep serving', async () => {
    const socket = await connect(server.url);
    sendRawPacket(socket, `2["lobby:subscribe",${nested(5000)}]`);
    const after = await socket.timeout(5_000).emitWithAck('lobbies:subscribe');
    expect(after).toEqual({ lobbies: expect.any(Array) });
    await expectHealthy();
  });

  it('a payload nested just past the bound is answered 400 naming the rule', async () => {
    const socket = await connect(server.url);
    const payload = JSON.parse(nestedObject(MAX_JSON_DEPTH + 1));
    const answer = await socket.timeout(5_000).emitWithAck('lobby:subscribe', payload);
    expect(answer).toEqual({ error: `payload: nested deeper than ${MAX_JSON_DEPTH} levels`, status: 400 });
    await expectHealthy();
  });
});

/** A session cookie through the dev login: a body reaches parsing only after its credential passed. */
async function devSession(name: string): Promise<string> {
  const response = await fetch(`${server.url}/auth/dev?name=${name}`, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

describe('JSON bodies', () => {
  for (const path of ['/api/premium/paypal-webhook', '/api/premium/gift-codes/redeem', '/api/lobbies']) {
    it(`a body nested 8000 deep to ${path} is answered 400, not 500`, async () => {
      const cookie = await devSession('deep');
      const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: nested(8000) });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: `body: nested deeper than ${MAX_JSON_DEPTH} levels` });
      await expectHealthy();
    });
  }
});
