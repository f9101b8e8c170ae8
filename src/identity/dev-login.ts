import { createHash } from 'node:crypto';
import type { UserRecord } from '../db/user-record';
import type { LoginProfile } from '../db/users-repository';
import type { SessionStore } from './session-store';

export interface DevLoginDeps {
  users: { upsertFromLogin(profile: LoginProfile): Promise<UserRecord> };
  sessions: Pick<SessionStore, 'create' | 'destroy'>;
  clock: () => number;
}

/**
 * A dev user's platform id: 17 digits, like a real one, so every route and view that expects a
 * platform id works; it starts with 9 where real ids start with 7656119, so a dev user never
 * takes a real account's id. The same name always gives the same user.
 */
export function devPlatformId(name: string): string {
  const digest = createHash('sha256').update(name.toLowerCase()).digest();
  return `9${(digest.readBigUInt64BE(0) % 10n ** 16n).toString().padStart(16, '0')}`;
}

/** Local play without an identity provider (DEV_LOGIN=1): a session for any named local user. */
export class DevLogin {
  constructor(private readonly deps: DevLoginDeps) {}

  async login(name: string, admin: boolean, previousCookie: string | undefined): Promise<{ cookieValue: string; user: UserRecord }> {
    const user = await this.deps.users.upsertFromLogin({
      platformId: devPlatformId(name),
      username: name,
      avatarUrl: null,
      isAdmin: admin,
      at: new Date(this.deps.clock()),
    });
    // As the real login does: a fresh session, and the one the browser held before ends.
    if (previousCookie) await this.deps.sessions.destroy(previousCookie);
    const { cookieValue } = await this.deps.sessions.create(user.id);
    return { cookieValue, user };
  }
}
