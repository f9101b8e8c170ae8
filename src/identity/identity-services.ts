import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { ApiKeyRepository } from '../db/api-key-repository';
import { AuditRepository } from '../db/audit-repository';
import type { Database } from '../db/orm';
import { PremiumRepository } from '../db/premium-repository';
import { LastKnown } from '../db/last-known';
import { OpenIdNonceRepository } from '../db/openid-nonce-repository';
import type { UsersRepository } from '../db/users-repository';
import { createChatLink } from '../integrations/discord-oauth';
import type { LiveStore } from '../live/live-store';
import { createHmac } from 'node:crypto';
import { KeyAdmin } from '../admin/key-admin';
import { ApiKeys } from './api-keys';
import { createAuthenticator, type Authenticator } from './authenticator';
import { ChatAccountLink } from './chat-account-link';
import { KeyAuditLog } from './key-audit-log';
import { KeyRateLimit } from './key-rate-limit';
import { PlatformLogin } from './platform-login';
import { RecentUsers } from './recent-users';
import type { Presence } from './presence';
import { SessionStore } from './session-store';

export interface IdentityInput {
  config: Config;
  sessionSecret: string;
  db: Database;
  live: LiveStore;
  users: UsersRepository;
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
export function createIdentity(input: IdentityInput): Identity {
  const { config, db, live, users, presence, clock, logger } = input;
  const sessions = new SessionStore(live, input.sessionSecret, clock);
  const keyRepository = new ApiKeyRepository(db);
  const auditRepository = new AuditRepository(db);
  const premium = new PremiumRepository(db);
  // A secret of its own, derived so that address hashes say nothing about the cookie signatures.
  const addressSecret = createHmac('sha256', input.sessionSecret).update('api-key-audit:client-address').digest('hex');
  const auditLog = new KeyAuditLog(
    { insertMany: (rows) => auditRepository.insertMany(rows), touchLastUsed: (id, at) => keyRepository.touchLastUsed(id, at) },
    addressSecret,
    { onError: (error) => logger.error({ err: error }, 'audit rows not written yet; will retry') },
  );
  // Routes that need only the live store (vote, chat) keep working while Postgres cannot answer
  // this second: the user row behind a session is served from the last read (see LastKnown).
  const userRows = new LastKnown<number, Awaited<ReturnType<UsersRepository['findById']>>>(clock);
  const lastKnownUsers = { findById: (id: number) => userRows.read(id, () => users.findById(id)) };
  const authenticator = createAuthenticator({
    sessions,
    users: lastKnownUsers,
    recentUsers: new RecentUsers(lastKnownUsers),
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
    nonces: new OpenIdNonceRepository(db),
    clock,
  });
  const chat = new ChatAccountLink({
    link: config.discord && createChatLink({ ...config.discord, redirectUri: `${config.publicUrl}/auth/chat/callback` }),
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
    keyAdmin: new KeyAdmin({ db, clock }),
    auditLog,
    premium,
    async close() {
      clearInterval(pruning);
      await auditLog.close();
      if (auditLog.waiting > 0) logger.error({ rows: auditLog.waiting }, 'audit rows could not be written before shutdown');
    },
  };
}
