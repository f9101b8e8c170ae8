import { createHash } from 'node:crypto';
import type { UserRecord } from '../db/user-record';
import type { LoginProfile } from '../db/users-repository';
import { buildLoginRedirect, NONCE_MAX_SKEW_MS, verifyAssertion, type AssertionFailure } from '../integrations/steam-openid';
import { fetchPlayerSummary } from '../integrations/steam-profile';
import type { SessionStore } from './session-store';

export interface PlatformLoginDeps {
  openIdUrl: string;
  publicUrl: string;
  steamApi: { url: string; key: string | undefined };
  adminPlatformIds: ReadonlySet<string>;
  users: {
    findByPlatformId(platformId: string): Promise<UserRecord | null>;
    upsertFromLogin(profile: LoginProfile): Promise<UserRecord>;
  };
  sessions: Pick<SessionStore, 'create' | 'destroy'>;
  /** Used nonces, in Postgres: a flushed live store must not make a used assertion good again. */
  nonces: { claim(nonceHash: string, expiresAt: Date, now: Date): Promise<boolean> };
  clock: () => number;
}

export type LoginOutcome =
  | { ok: true; cookieValue: string; user: UserRecord }
  | { ok: false; reason: AssertionFailure | 'login_not_started' };

// A claimed nonce must be remembered for as long as its timestamp could still pass the skew check.
const NONCE_TTL_MS = 2 * NONCE_MAX_SKEW_MS + 60_000;

/** Login through the identity provider (docs/design/CONTRACT.md, "Logging in"): redirect out, verify the way back. */
export class PlatformLogin {
  constructor(private readonly deps: PlatformLoginDeps) {}

  get returnTo(): string {
    return `${this.deps.publicUrl}/auth/platform/callback`;
  }

  /** The return_to of a login started with `state` (the browser's login-state cookie). */
  returnToFor(state: string): string {
    return `${this.returnTo}?state=${encodeURIComponent(state)}`;
  }

  redirectUrl(state: string): URL {
    return buildLoginRedirect({ providerUrl: this.deps.openIdUrl, returnTo: this.returnToFor(state), realm: `${this.deps.publicUrl}/` });
  }

  /**
   * Verifies the provider's reply; on success the user is created or refreshed and a session
   * opened. `state` is the login-state cookie of the browser at the callback: the signed
   * return_to must carry it, so the login completes only in the browser that started it.
   */
  async complete(query: URLSearchParams, previousCookie: string | undefined, state: string | undefined): Promise<LoginOutcome> {
    if (!state || query.get('state') !== state) return { ok: false, reason: 'login_not_started' };
    const verdict = await verifyAssertion({
      providerUrl: this.deps.openIdUrl,
      expectedReturnTo: this.returnToFor(state),
      query,
      claimNonce: (nonce) => this.claimNonce(nonce),
      now: this.deps.clock(),
    });
    if (!verdict.ok) return verdict;
    const user = await this.deps.users.upsertFromLogin(await this.profile(verdict.platformId));
    // A fresh session per login; the one the browser held before (if any) ends here.
    if (previousCookie) await this.deps.sessions.destroy(previousCookie);
    const { cookieValue } = await this.deps.sessions.create(user.id);
    return { ok: true, cookieValue, user };
  }

  private async claimNonce(nonce: string): Promise<boolean> {
    const now = this.deps.clock();
    const hash = createHash('sha256').update(nonce).digest('base64url');
    return this.deps.nonces.claim(hash, new Date(now + NONCE_TTL_MS), new Date(now));
  }

  /**
   * Name and avatar come from the provider's Web API when a key is configured. Without one, or
   * when it does not answer, a known user keeps the name they had and a new one gets a neutral name.
   */
  private async profile(platformId: string): Promise<LoginProfile> {
    const isAdmin = this.deps.adminPlatformIds.has(platformId);
    const at = new Date(this.deps.clock());
    const { key, url } = this.deps.steamApi;
    const summary = key ? await fetchPlayerSummary({ apiUrl: url, apiKey: key, platformId }) : null;
    if (summary) return { platformId, username: summary.username, avatarUrl: summary.avatarUrl, isAdmin, at };
    const known = await this.deps.users.findByPlatformId(platformId);
    if (known) return { platformId, username: known.username, avatarUrl: known.avatarUrl, isAdmin, at };
    return { platformId, username: `Player ${platformId.slice(-5)}`, avatarUrl: null, isAdmin, at };
  }
}
