import type { ServerOptions } from '../../../src/main';
import { nextPlatformId, Player } from '../../api/lobby/lobby-client';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';

/** A test server whose Postgres is reached through the test's own TCP proxy, to stall it at will. */
export interface ServerBehindProxy {
  target: TestDatabase;
  proxy: TcpProxy;
  server: TestServerWithLogin;
  /** A new logged-in player on this server. */
  login(): Promise<Player>;
  close(): Promise<void>;
}

export async function startServerBehindProxy(timeoutMs: number, options: Partial<ServerOptions> = {}): Promise<ServerBehindProxy> {
  const target = await createTestDatabase();
  const proxy = await startTcpProxy(target.url);
  const server = await startTestServerWithLogin({ DATABASE_URL: proxy.url, DATABASE_TIMEOUT_MS: String(timeoutMs) }, options);
  return {
    target,
    proxy,
    server,
    async login() {
      const { cookie, user } = await server.login(nextPlatformId());
      return new Player(server.url, cookie, user);
    },
    async close() {
      proxy.restore();
      await server.close();
      await proxy.close();
      await target.drop();
    },
  };
}
