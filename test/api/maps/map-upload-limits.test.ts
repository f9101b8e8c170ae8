import { randomBytes } from 'node:crypto';
import { readFile, readdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeSteamOpenId, type FakeSteamOpenId } from '../../fakes/fake-steam-openid';
import { loginAs } from '../../support/login';
import { startServerProcess, type SpawnedServer } from '../../support/spawn-server';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';
import { mapRows } from './maps-client';
import { streamUpload } from './multipart-stream';

/**
 * The upload's limits on a server in its own process, so its memory can be read from /proc:
 * bodies over 95 MiB, clients that go away, a server killed mid-upload.
 */
const ADMIN = '76561198000001401';
const MiB = 1024 * 1024;

let provider: FakeSteamOpenId;
let database: TestDatabase;
let dataDir: string;
let env: Record<string, string>;
let server: SpawnedServer;
let cookie: string;

async function start(): Promise<SpawnedServer> {
  return startServerProcess(env, 90_000);
}

/** Peak and current resident memory of a process, from /proc/<pid>/status. */
async function memoryOf(pid: number): Promise<{ peakMiB: number; nowMiB: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { peakMiB: kib('VmHWM') / 1024, nowMiB: kib('VmRSS') / 1024 };
}

const temporaries = () => readdir(join(dataDir, 'maps', '.incoming')).catch(() => [] as string[]);

/** Sends 20 of 40 MiB and stops sending, once the server holds a processing row and a temporary file for it. */
async function halfAnUpload(name: string) {
  const upload = streamUpload(server.url, { cookie }, { fileName: `${name}.bsp`, fileBytes: 40 * MiB, chunked: false, stopAfter: 20 * MiB });
  await vi.waitFor(async () => {
    expect(await mapRows(database.db, name)).toEqual([expect.objectContaining({ status: 'processing' })]);
    expect(await temporaries()).toHaveLength(1);
  }, { timeout: 20_000, interval: 50 });
  return upload;
}

beforeAll(async () => {
  provider = await startFakeSteamOpenId();
  database = await createTestDatabase();
  dataDir = await mkdtemp(join(tmpdir(), 'league-maps-limits-'));
  env = {
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    STEAM_OPENID_URL: provider.url,
    ADMIN_PLATFORM_IDS: ADMIN,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    SEED_DEMO_DATA: 'never',
    LOG_LEVEL: 'warn',
  };
  server = await start();
  cookie = (await loginAs(server, provider, ADMIN)).cookie;
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await database?.drop();
  await provider?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('an upload over 95 MiB', () => {
  // The server process holds about 200 MiB before any upload (MikroORM alone is about 65 MiB), so
  // the bound is on what the upload adds: the body is streamed, never held.
  it('streamed without a declared length is answered 413 at the limit, the server growing by under 64 MiB, and closed', async () => {
    const before = await memoryOf(server.child.pid!);
    console.log(`before: RSS ${before.nowMiB.toFixed(0)} MiB, peak ${before.peakMiB.toFixed(0)} MiB`);
    const started = performance.now();
    const upload = streamUpload(server.url, { cookie }, { fileName: 'cp_huge_stream.bsp', fileBytes: 96 * MiB, chunked: true });
    const response = await upload.response;
    const seconds = (performance.now() - started) / 1000;
    const memory = await memoryOf(server.child.pid!);
    console.log(`413 after ${seconds.toFixed(2)} s, ${(upload.written() / MiB).toFixed(1)} MiB sent; server RSS peak ${memory.peakMiB.toFixed(0)} MiB`);
    expect(response.statusCode).toBe(413);
    expect(JSON.parse(response.body)).toEqual({ error: expect.stringContaining('limited to') });
    expect(memory.peakMiB - before.nowMiB).toBeLessThan(64);
    await upload.closed;
    expect(await mapRows(database.db, 'cp_huge_stream')).toEqual([expect.objectContaining({ status: 'rejected', rejection_reason: expect.stringContaining('limited to') })]);
    expect(await temporaries()).toEqual([]);
  }, 60_000);

  it('with a declared length is answered 413 before a byte of the body is sent', async () => {
    const upload = streamUpload(server.url, { cookie }, { fileName: 'cp_huge_declared.bsp', fileBytes: 96 * MiB, chunked: false, stopAfter: 0 });
    const response = await upload.response;
    expect(response.statusCode).toBe(413);
    expect(upload.written()).toBeLessThan(2 * MiB);
    expect(await mapRows(database.db, 'cp_huge_declared')).toEqual([]);
  });
});

describe('a client that disconnects halfway', () => {
  it('leaves no file and a rejected row', async () => {
    const upload = await halfAnUpload('cp_gone_halfway');
    upload.req.destroy();
    await vi.waitFor(async () => {
      expect(await mapRows(database.db, 'cp_gone_halfway')).toEqual([expect.objectContaining({ status: 'rejected', rejection_reason: 'the client disconnected mid-upload' })]);
    }, { timeout: 20_000, interval: 50 });
    expect(await temporaries()).toEqual([]);
  }, 40_000);
});

describe('two instances sharing Postgres', () => {
  it('give one 201 and one 409 to concurrent uploads of one name, one to each', async () => {
    const otherDir = await mkdtemp(join(tmpdir(), 'league-maps-other-'));
    const other = await startServerProcess({ ...env, DATA_DIR: otherDir }, 90_000);
    try {
      const otherCookie = (await loginAs(other, provider, ADMIN)).cookie;
      const send = (url: string, cookie: string, revision: number) =>
        streamUpload(url, { cookie }, { fileName: 'cp_two_instances.bsp', fileBytes: 8 * MiB, chunked: false, revision }).response;
      const answers = await Promise.all([send(server.url, cookie, 701), send(other.url, otherCookie, 702)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
      expect((await mapRows(database.db, 'cp_two_instances')).filter((r) => r.status === 'active')).toHaveLength(1);
    } finally {
      await other.stop();
      await rm(otherDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('a server stopped (SIGTERM) mid-upload', () => {
  it('rejects the upload and removes its file before it exits', async () => {
    const upload = await halfAnUpload('cp_server_stopped');
    expect(await server.stop('SIGTERM')).toBe(0);
    upload.req.destroy();
    expect(await temporaries()).toEqual([]);
    expect(await mapRows(database.db, 'cp_server_stopped')).toEqual([
      expect.objectContaining({ status: 'rejected', rejection_reason: 'the server shut down during the upload' }),
    ]);
    server = await start();
    cookie = (await loginAs(server, provider, ADMIN)).cookie;
  }, 120_000);
});

describe('a server killed mid-upload', () => {
  it('leaves nothing behind once it starts again', async () => {
    const upload = await halfAnUpload('cp_server_crash');
    await server.stop('SIGKILL');
    upload.req.destroy();
    expect(await temporaries()).toHaveLength(1);

    server = await start();
    expect(await temporaries()).toEqual([]);
    expect(await mapRows(database.db, 'cp_server_crash')).toEqual([
      expect.objectContaining({ status: 'rejected', rejection_reason: 'the upload was interrupted (the server stopped)' }),
    ]);
    expect((await readdir(join(dataDir, 'maps'))).filter((f) => f.endsWith('-cp_server_crash.bsp'))).toEqual([]);
  }, 120_000);
});
