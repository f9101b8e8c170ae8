import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { Database } from '../db/orm';
import type { PremiumRepository } from '../db/premium-repository';
import { LastKnown } from '../db/last-known';
import type { VersionedUser } from '../db/users-repository';
import type { Repositories } from './repositories';
import type { LiveStore } from '../live/live-store';
import { createHmac } from 'node:crypto';
import { KeyAdmin } from '../admin/key-admin';
import { ApiKeys } from '../identity/api-keys';
import { BatchedUserReads } from '../identity/batched-user-reads';
import { createAuthenticator, type Authenticator } from '../identity/authenticator';
import { ChatAccountLink } from '../identity/chat-account-link';
import { KeyAuditLog } from '../identity/key-audit-log';
import { KeyRateLimit } from '../identity/key-rate-limit';
import { PlatformLogin } from '../identity/platform-login';
import { RecentUsers } from '../identity/recent-users';
import type { Presence } from '../identity/presence';
import { SessionStore } from '../identity/session-store';

export interface IdentityInput {
  config: Config;
  sessionSecret: string;
  db: Database;
  live: LiveStore;
  repos: Pick<Repositories, 'users' | 'apiKeys' | 'keyAudit' | 'premium' | 'openIdNonces'>;
  presence: Presence;
  clock: () => number;
  logger: Logger;
}

export interface Identity {
  authenticator: Authenticator;
  authenticate: Authenticator['authenticate'];
  sessions: SessionStore;
  login: PlatformLogin;
  chat: ChatAccountLink;
  apiKeys: ApiKeys;
  /** Admin keys issued and revoked with an admin audit row. */
  keyAdmin: KeyAdmin;
  auditLog: KeyAuditLog;
  premium: PremiumRepository;
  /** Writes the queued audit rows and stops the timers: part of a graceful shutdown. */
  close(): Promise<void>;
}

const PRESENCE_PRUNE_EVERY_MS = 60_000;

/** Builds login, sessions, keys and the credential check from configuration and the stores. */
export async function assembleIdentity(input: IdentityInput): Promise<Identity> {
  const { config, db, live, repos, presence, clock, logger } = input;
  const { users, premium, apiKeys: keyRepository, keyAudit: auditRepository } = repos;
  const sessions = new SessionStore(live, input.sessionSecret, clock);
  // A secret of its own, derived so that address hashes say nothing about the cookie signatures.
  const addressSecret = createHmac('sha256', input.sessionSecret).update('api-key-audit:client-address').digest('hex');
  const auditLog = new KeyAuditLog(
    { insertMany: (rows) => auditRepository.insertMany(rows), touchLastUsed: (id, at) => keyRepository.touchLastUsed(id, at) },
    addressSecret,
    { onError: (error) => logger.error({ err: error }, 'audit rows not written yet; will retry') },
  );
  // Routes that need only the live store (vote, chat) keep working while Postgres cannot answer
  // this second: the user row behind a session is served from the last read (see LastKnown).
  const userRows = new LastKnown<number, VersionedUser | null>(clock);
  const batchedUsers = new BatchedUserReads(users);
  const loadUser = (id: number) => userRows.read(id, () => batchedUsers.findById(id));
  const lastKnownUsers = { findById: async (id: number) => (await loadUser(id))?.user ?? null };
  const recentUsers = new RecentUsers({ load: loadUser, changed: (known) => users.changedRows(known) });
  const authenticator = createAuthenticator({
    sessions,
    users: lastKnownUsers,
    recentUsers,
    keys: keyRepository,
    premium,
    pluginSecret: config.pluginSecret,
    clock,
    presence,
    rateLimit: new KeyRateLimit(live, clock),
    audit: auditLog,
    publicUrl: config.publicUrl,
    onBackgroundError: (error) => logger.warn({ err: error }, 'presence update failed'),
  });
  const login = new PlatformLogin({
    openIdUrl: config.steam.openIdUrl,
    publicUrl: config.publicUrl,
    steamApi: { url: config.steam.apiUrl, key: config.steam.apiKey },
    adminPlatformIds: config.adminPlatformIds,
    users,
    sessions,
    nonces: repos.openIdNonces,
    clock,
  });
  const chat = new ChatAccountLink({
    // The OAuth client (arctic) is loaded only when a chat platform is configured.
    link: config.discord
      ? (await import('../integrations/discord-oauth')).createChatLink({ ...config.discord, redirectUri: `${config.publicUrl}/auth/chat/callback` })
      : undefined,
    live,
    users,
  });
  const apiKeys = new ApiKeys({ keys: keyRepository, audit: auditRepository, flushAudit: () => auditLog.flush(), clock });
  const pruning = setInterval(() => {
    presence.prune().catch((error: unknown) => logger.warn({ err: error }, 'presence prune failed'));
  }, PRESENCE_PRUNE_EVERY_MS);
  pruning.unref();

  return {
    authenticator,
    authenticate: authenticator.authenticate,
    sessions,
    login,
    chat,
    apiKeys,
    keyAdmin: new KeyAdmin({ db, apiKeys, keys: keyRepository, clock }),
    auditLog,
    premium,
    async close() {
      clearInterval(pruning);
      recentUsers.stop();
      sessions.stop();
      await auditLog.close();
      if (auditLog.waiting > 0) logger.error({ rows: auditLog.waiting }, 'audit rows could not be written before shutdown');
    },
  };
}
