import type { TestServerWithLogin } from '../../support/login';
import { nextPlatformId, Player } from '../lobby/lobby-client';

/** A freshly logged-in user of `server`, or the one with `platformId` (an admin listed in ADMIN_PLATFORM_IDS). */
export async function forumUser(server: TestServerWithLogin, platformId = nextPlatformId()): Promise<Player> {
  const { cookie, user } = await server.login(platformId);
  return new Player(server.url, cookie, user);
}

/** A GET with no credential, as a visitor's browser sends it. */
export async function anonymousGet(server: { url: string }, path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}${path}`);
  return { status: response.status, body: await response.json() };
}
