import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeSteamOpenId, type FakeSteamOpenId } from '../fakes/fake-steam-openid';
import { loginAs, type LoggedIn } from './login';
import { deleteKeysWithPrefix } from './redis-prefix';
import { startServerProcess, type SpawnedServer } from './spawn-server';
import { createTestDatabase, type TestDatabase } from './test-database';

/** One of the two processes; `login` goes through it, and the cookie it gives is good on both. */
export interface Instance extends SpawnedServer {
  login(platformId: string): Promise<LoggedIn>;
}

export interface TwoInstances {
  /** Two server processes sharing one Postgres database, one Redis key prefix and one session secret. */
  servers: Instance[];
  provider: FakeSteamOpenId;
  database: TestDatabase;
  /** Stops server `index` and starts a fresh process in its place (same stores, a new port): `servers[index]` is the new one. */
  restart(index: number): Promise<Instance>;
  close(): Promise<void>;
}

/**
 * Two server processes as behind a load balancer (uWS fits one socket.io server per process), on
 * a fresh database and Redis prefix, logging in through one fake identity provider. Needs
 * REDIS_URL and DATABASE_URL. `env` adds to each process's environment, `own[i]` to server i's
 * alone (a store reached through a proxy of the test's, say).
 */
export async function startTwoInstances(env: Record<string, string> = {}, own: Array<Record<string, string>> = []): Promise<TwoInstances> {
  const redisUrl = process.env.REDIS_URL!;
  const prefix = `t2${randomBytes(5).toString('hex')}:`;
  const database = await createTestDatabase();
  const provider = await startFakeSteamOpenId();
  const secret = randomBytes(32).toString('base64url');
  const servers: Instance[] = [];
  const dataDirs: string[] = [];
  const close = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await provider.close();
    await database.drop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
    await deleteKeysWithPrefix(redisUrl, prefix);
  };
  const start = async (index: number): Promise<Instance> => {
    const dataDir = await mkdtemp(join(tmpdir(), 'league-two-'));
    dataDirs.push(dataDir);
    const server = await startServerProcess({
      NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: database.url, REDIS_URL: redisUrl, REDIS_PREFIX: prefix,
      SESSION_SECRET: secret, STEAM_OPENID_URL: provider.url, SEED_DEMO_DATA: 'never', LOG_LEVEL: 'warn', ...env, ...own[index],
    });
    return { ...server, login: (platformId) => loginAs(server, provider, platformId) };
  };
  try {
    for (let i = 0; i < 2; i++) servers.push(await start(i));
  } catch (error) {
    await close();
    throw error;
  }
  const restart = async (index: number) => {
    await servers[index].stop();
    servers[index] = await start(index);
    return servers[index];
  };
  return { servers, provider, database, restart, close };
}

/**
 * `describe` for tests on two instances: skipped without REDIS_URL and DATABASE_URL (one embedded
 * PGlite serves one process), except under CI, where their absence fails instead.
 */
export function describeOnTwoInstances(name: string, body: () => void): void {
  const shared = Boolean(process.env.REDIS_URL && process.env.DATABASE_URL);
  describe.runIf(!shared && process.env.CI)(`${name} (required)`, () => {
    it('has a Redis and a Postgres to share', () => expect.fail(`CI is set but REDIS_URL or DATABASE_URL is not: ${name} cannot run`));
  });
  describe.skipIf(!shared)(name, body);
}
