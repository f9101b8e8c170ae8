import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiKeyRecord } from '../db/api-key-repository';
import type { UserRecord } from '../db/user-record';
import { hashApiKey, parseBearer } from '../domain/keys/api-key-format';
import type { AccessUser, ResolvedCredential, RouteCredential } from '../domain/keys/key-access';
import type { ResolveOptions, Session } from './session-store';

/** What the resolver reads from storage; each is one indexed lookup. */
export interface CredentialSources {
  sessions: { resolve(cookieValue: string | undefined, options?: ResolveOptions): Promise<(Session & { refreshed?: boolean }) | null> };
  users: { findById(id: number): Promise<UserRecord | null> };
  /** The same lookup from a copy at most half a second old (recent-users.ts), for routes that allow it. */
  recentUsers?: { findById(id: number): Promise<UserRecord | null> };
  keys: { findActiveByHash(keyHash: string): Promise<ApiKeyRecord | null> };
  premium: { activeGrant(userId: number, now: Date): Promise<unknown | null> };
  pluginSecret: string | undefined;
  clock: () => number;
}

export interface RawCredentials {
  sessionCookie?: string;
  authorization?: string;
  pluginSecret?: string;
}

/** The request's credentials, resolved only as far as the route needs them. */
export interface Presented {
  credentials: ResolvedCredential[];
  session?: { session: Session & { refreshed?: boolean }; user: UserRecord; cookieValue: string };
  /** A stored, unrevoked key the Authorization header named (before any scope check). */
  key?: ApiKeyRecord;
  keyUser?: UserRecord;
}

export interface ResolveNeeds {
  accepts: readonly RouteCredential[];
  /** Load the account's premium state even for a session (a role 'premium' route). */
  premiumForSession: boolean;
  /** The session and its user's row may be recent copies (lobby commands; never the admin routes). */
  recent?: boolean;
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Equal-length digests keep the comparison constant-time whatever the lengths of the inputs. */
export function secretMatches(given: string, expected: string | undefined): boolean {
  if (expected === undefined) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

/** Only a Bearer header is an attempt at a key; other schemes are not ours and are ignored. */
export const isBearerAttempt = (authorization: string | undefined): boolean =>
  authorization !== undefined && /^bearer\s/i.test(authorization);

export class CredentialResolver {
  constructor(private readonly sources: CredentialSources) {}

  /** Looks up the stored key a bearer header names; null for a malformed, unknown or revoked key. */
  async findKey(authorization: string | undefined): Promise<ApiKeyRecord | null> {
    const bearer = parseBearer(authorization);
    if (!bearer) return null;
    const key = await this.sources.keys.findActiveByHash(hashApiKey(bearer.raw));
    // The prefix is covered by the hash, so a mismatch means a corrupted row: trust neither.
    return key && key.kind === bearer.kind ? key : null;
  }

  async accessUser(user: UserRecord, withPremium: boolean): Promise<AccessUser> {
    const premiumActive = withPremium ? (await this.sources.premium.activeGrant(user.id, new Date(this.sources.clock()))) !== null : false;
    return { id: user.id, isAdmin: user.isAdmin, premiumActive };
  }

  /** The key credential once its record is known (found by `findKey`), with its account loaded. */
  async keyCredential(key: ApiKeyRecord): Promise<{ credential: ResolvedCredential; user: UserRecord | null }> {
    const user = await this.sources.users.findById(key.userId);
    if (!user) return { credential: { kind: 'bad_key' }, user: null };
    const access = await this.accessUser(user, key.kind === 'premium');
    return { credential: { kind: 'key', keyKind: key.kind, revoked: key.revokedAt !== null, user: access }, user };
  }

  /** A found key as the only presented credential. */
  async presentKey(key: ApiKeyRecord): Promise<Presented> {
    const { credential, user } = await this.keyCredential(key);
    return { credentials: [credential], key, ...(user ? { keyUser: user } : {}) };
  }

  async session(cookieValue: string | undefined, withPremium: boolean, recent = false): Promise<Presented['session'] & { access: AccessUser } | null> {
    if (!cookieValue) return null;
    const session = await this.sources.sessions.resolve(cookieValue, { recent });
    if (!session) return null;
    const users = (recent && this.sources.recentUsers) || this.sources.users;
    const user = await users.findById(session.userId);
    if (!user) return null;
    return { session, user, cookieValue, access: await this.accessUser(user, withPremium) };
  }

  /**
   * A route that takes keys and was sent one decides on the key alone (key-access.ts), so the
   * session is not even read then; credentials a route does not accept are never looked up.
   */
  async resolve(raw: RawCredentials, needs: ResolveNeeds, knownKey?: ApiKeyRecord | null): Promise<Presented> {
    const presented: Presented = { credentials: [] };
    const acceptsKeys = needs.accepts.includes('premium') || needs.accepts.includes('admin');
    if (acceptsKeys && isBearerAttempt(raw.authorization)) {
      const key = knownKey === undefined ? await this.findKey(raw.authorization) : knownKey;
      return key ? this.presentKey(key) : { credentials: [{ kind: 'bad_key' }] };
    }
    if (needs.accepts.includes('plugin') && raw.pluginSecret !== undefined) {
      presented.credentials.push({ kind: 'plugin', valid: secretMatches(raw.pluginSecret, this.sources.pluginSecret) });
    }
    if (needs.accepts.includes('session')) {
      const found = await this.session(raw.sessionCookie, needs.premiumForSession, needs.recent);
      if (found) {
        const { access, ...session } = found;
        presented.session = session;
        presented.credentials.push({ kind: 'session', user: access });
      }
    }
    return presented;
  }
}
