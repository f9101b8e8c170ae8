import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config';
import { startServer, type RunningServer, type ServerOptions } from '../../src/main';
import { deleteKeysWithPrefix } from './redis-prefix';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestServer {
  url: string;
  server: RunningServer;
  database: TestDatabase;
  /** The env the server was configured with (to start a second process on the same stores). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A real server on an ephemeral port with its own database (a fresh Postgres database when
 * DATABASE_URL is set, in-memory PGlite otherwise) and its own Redis key prefix when REDIS_URL is
 * set (the in-process store otherwise). Tests talk to it over real HTTP and sockets.
 */
export async function startTestServer(env: Record<string, string> = {}, options: Partial<ServerOptions> = {}): Promise<TestServer> {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'league-test-'));
  const fullEnv: Record<string, string> = {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    SEED_DEMO_DATA: 'never',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `t${randomBytes(5).toString('hex')}:` } : {}),
    ...env,
  };
  let server: RunningServer;
  try {
    server = await startServer({ config: loadConfig(fullEnv), ...options });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const url = server.url;
  return {
    url,
    server,
    database,
    env: fullEnv,
    async close() {
      await server.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
      if (fullEnv.REDIS_URL && fullEnv.REDIS_PREFIX) await deleteKeysWithPrefix(fullEnv.REDIS_URL, fullEnv.REDIS_PREFIX);
    },
  };
}
