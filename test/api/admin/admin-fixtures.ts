import { issueKey } from '../identity/identity-fixtures';
import { startTestServerWithLogin, type LoggedIn, type TestServerWithLogin } from '../../support/login';
import { nextPlatformId, Player } from '../lobby/lobby-client';

/** What a test does as the admin, on one server. */
export interface AdminSide {
  /** A listed admin, logged in. */
  admin: Player;
  /** That admin's key (svc_ak_...). */
  adminKey: string;
  player(): Promise<Player>;
  /** `fetch` with the admin key as bearer. */
  asKey(path: string, init?: { method?: string; body?: unknown }): Promise<{ status: number; body: any }>;
}

export interface AdminWorld extends AdminSide {
  server: TestServerWithLogin;
}

/** A server where one listed admin has logged in and holds an admin key. */
export async function startAdminWorld(options: Parameters<typeof startTestServerWithLogin>[1] = {}): Promise<AdminWorld> {
  const adminPlatformId = nextPlatformId();
  const server = await startTestServerWithLogin({ ADMIN_PLATFORM_IDS: adminPlatformId }, options);
  return { server, ...(await adminSideOn(server, adminPlatformId)) };
}

/** Logs in `adminPlatformId`, which the server lists in ADMIN_PLATFORM_IDS, and issues it an admin key. */
export async function adminSideOn(
  server: { url: string; login(platformId: string): Promise<LoggedIn> },
  adminPlatformId: string,
): Promise<AdminSide> {
  const login = await server.login(adminPlatformId);
  const admin = new Player(server.url, login.cookie, login.user);
  const adminKey = (await issueKey(server, login.cookie, 'admin')).raw;
  return {
    admin,
    adminKey,
    async player() {
      const { cookie, user } = await server.login(nextPlatformId());
      return new Player(server.url, cookie, user);
    },
    async asKey(path, init = {}) {
      const response = await fetch(`${server.url}${path}`, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${adminKey}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
  };
}

/** The newest audit row of an action, read through the audit route. */
export async function lastAudit(world: AdminWorld, action: string): Promise<any> {
  const page = await world.asKey(`/api/admin/audit?action=${encodeURIComponent(action)}&limit=1`);
  return page.body.entries[0];
}
