import type { RouteContract } from '../../schema/route-contract';
import { decideAccess, type AccessDecision, type RouteAccess } from '../domain/keys/key-access';
import type { AnswerTrail } from '../door/answer-trail';
import { HttpError } from '../door/http-refusal';
import type { PresentedRequest } from '../door/presented-request';
import { ANONYMOUS, type Caller } from './caller';
import type { KeyAuditLog } from './key-audit-log';
import { KEY_REQUESTS_PER_WINDOW, KEY_WINDOW_MS, type KeyRateLimit } from './key-rate-limit';
import { CredentialResolver, isBearerAttempt, type CredentialSources, type Presented } from './presented-credentials';
import { isCrossSiteFetch, isOwnNavigation, originOfUrl, requestSite } from './request-site';
import { readSessionCookie, sessionSetCookie } from './session-cookie';

export type RouteRule = Pick<RouteContract, 'auth' | 'role' | 'optionalSession'>;

export interface AuthenticatorDeps extends CredentialSources {
  presence: { touch(userId: number): Promise<void> | undefined };
  rateLimit: KeyRateLimit;
  audit: KeyAuditLog;
  publicUrl: string;
  onBackgroundError?: (error: unknown) => void;
}

export type SocketCredentialResult =
  | { ok: true; caller: Caller }
  | { ok: false; status: 401 | 403 | 429; error: string; retryAfterS?: number };

export interface Authenticator {
  /**
   * The exchange's credential step (src/door/exchange.ts): resolves the caller a route accepts from
   * what the request presented, or throws 401/403/429 (spec, Authentication). It never sees a
   * transport's response: a renewed cookie and the key audit go through the trail.
   */
  authenticate(request: PresentedRequest, route: RouteRule, trail: AnswerTrail): Caller | Promise<Caller>;
  /**
   * The same for the hot routes (lobby commands): the session and its user's row may be copies up to
   * known current half a second ago (checked-reads.ts) instead of a store round trip and a Postgres query per
   * request; admin routes still read fresh.
   */
  authenticateRecent(request: PresentedRequest, route: RouteRule, trail: AnswerTrail): Caller | Promise<Caller>;
  /** socket.io handshake: the session cookie, or a premium/admin key as `auth.token`; nothing is anonymous. */
  resolveSocketCredential(input: { cookieHeader?: string; token?: string; address?: string }): Promise<SocketCredentialResult>;
  /**
   * The credential step of a route that declares no credential and takes a session only as a hint
   * (client logs): the session's caller when the request comes from this site's pages, anonymous
   * otherwise; another site's beacon is neither refused nor counted in a user's name.
   */
  sameSiteSession(request: PresentedRequest, trail: AnswerTrail): Promise<Caller>;
  /**
   * The credential step of logout: the session cookie to end, on a navigation from this site only
   * (403 otherwise: a link on another site must not end the session). Nothing is read from a store,
   * so logging out works whichever store is down.
   */
  sessionToEnd(request: PresentedRequest): string | undefined;
}

// Rule 1 (a key in the URL is 401) is the exchange's, before any route's credential step.
export { KEY_IN_URL_REFUSAL, keyInUrl } from '../door/key-in-url';

const SOCKET_ACCESS: RouteAccess = { accepts: ['session', 'premium', 'admin'], role: 'any' };

function toCaller(decision: Extract<AccessDecision, { allow: true }>, presented: Presented): Caller {
  if (decision.via === 'session' && presented.session) {
    return { kind: 'session', user: presented.session.user, sessionId: presented.session.session.id };
  }
  if ((decision.via === 'premium' || decision.via === 'admin') && presented.key && presented.keyUser) {
    return { kind: 'key', keyKind: presented.key.kind, keyId: presented.key.id, user: presented.keyUser };
  }
  if (decision.via === 'plugin') return { kind: 'plugin', user: null };
  return ANONYMOUS;
}

/** Methods that change nothing; every other one is a state change the CSRF rule covers. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The refusal's message, from the limit's one definition (key-rate-limit.ts). */
export const KEY_RATE_LIMITED = `rate limit exceeded: ${KEY_REQUESTS_PER_WINDOW} requests per ${KEY_WINDOW_MS === 60_000 ? 'minute' : `${KEY_WINDOW_MS / 1000} s`} per key`;

/** The one refusal of a key over its rate, at every door (REST, socket commands, the handshake). */
export function keyRateLimited(retryAfterS: number): HttpError {
  return new HttpError(429, KEY_RATE_LIMITED, { 'Retry-After': String(retryAfterS) });
}

/**
 * A browser says where a request comes from: Fetch Metadata (`Sec-Fetch-Site: cross-site`) in
 * current browsers, the Origin (or Referer) in all. Either one naming another site refuses a
 * session's state change; a client that sends neither (curl, a bot) is not a browser being abused.
 */
function isCrossSite(req: PresentedRequest, publicOrigin: string | null): boolean {
  if (isCrossSiteFetch(req.secFetchSite)) return true;
  return requestSite({ origin: req.origin, referer: req.referer, host: req.host }, publicOrigin) === 'foreign';
}

export function createAuthenticator(deps: AuthenticatorDeps): Authenticator {
  const resolver = new CredentialResolver(deps);
  const publicOrigin = originOfUrl(deps.publicUrl);
  const background = (work: Promise<void> | undefined) => void work?.catch((error: unknown) => deps.onBackgroundError?.(error));

  /** Synchronous for an anonymous route, so a cached public read is answered without a promise. */
  function authenticate(req: PresentedRequest, route: RouteRule, trail: AnswerTrail, recent = false): Caller | Promise<Caller> {
    if (route.optionalSession) return optionalSessionCaller(req, trail);
    if (route.auth.length === 0) return ANONYMOUS;
    return authenticateCredentials(req, route, trail, recent);
  }

  async function authenticateCredentials(req: PresentedRequest, route: RouteRule, trail: AnswerTrail, recent: boolean): Promise<Caller> {
    const access: RouteAccess = { accepts: route.auth, role: route.role ?? 'any' };
    const raw = {
      sessionCookie: readSessionCookie(req.cookie),
      authorization: req.authorization,
      pluginSecret: req.pluginSecret,
    };

    const takesKeys = route.auth.includes('premium') || route.auth.includes('admin');
    let key: Awaited<ReturnType<CredentialResolver['findKey']>> | undefined;
    if (takesKeys && isBearerAttempt(raw.authorization)) {
      key = await resolver.findKey(raw.authorization);
      if (key) {
        // Every use of a real key is audited with the status the client finally got (rule 6),
        // refusals included; the row is queued in memory, written later in a batch.
        const use = { keyId: key.id, endpoint: req.path, method: req.method, clientAddress: req.clientAddress, at: deps.clock() };
        trail.onAnswered((status) => deps.audit.record({ ...use, status }));
        const rate = await deps.rateLimit.hit(key.id);
        if (!rate.allowed) throw keyRateLimited(rate.retryAfterS);
      }
    }

    // Admin routes read the session and the user's row fresh: removing an admin flag, or logging
    // out on another instance, takes effect there at once.
    const needs = { accepts: route.auth, premiumForSession: route.role === 'premium', recent: recent && route.role !== 'admin' };
    const presented = await resolver.resolve(raw, needs, key);
    const decision = decideAccess(access, presented.credentials);
    if (!decision.allow) throw new HttpError(decision.status, decision.error);
    return admitted(req, toCaller(decision, presented), presented.session, trail);
  }

  /** The last checks of a caller the route admits, then its side effects (presence, sliding expiry). */
  function admitted(req: PresentedRequest, caller: Caller, session: Presented['session'], trail: AnswerTrail): Caller {
    // CSRF: the cookie rides along on another site's form or fetch too (request-site.ts).
    // A key in a header is never sent by a browser on its own, so key callers are not checked.
    if (caller.kind === 'session' && !SAFE_METHODS.has(req.method) && isCrossSite(req, publicOrigin)) {
      throw new HttpError(403, 'cross-site request refused: state changes with the session cookie come from this site\'s pages only');
    }
    if (caller.user) background(deps.presence.touch(caller.user.id));
    // Sliding expiry: the store renewed the session, so the browser's cookie is renewed with it.
    if (caller.kind === 'session' && session?.session.refreshed) {
      trail.setHeader('Set-Cookie', sessionSetCookie(session.cookieValue, deps.publicUrl));
    }
    return caller;
  }

  /** A route that declares no credential yet answers for a session when one is presented (the caller's party, gift codes). */
  async function optionalSessionCaller(req: PresentedRequest, trail: AnswerTrail): Promise<Caller> {
    const found = await resolver.session(readSessionCookie(req.cookie), false);
    if (!found) return ANONYMOUS;
    const { access: _access, ...session } = found;
    return admitted(req, { kind: 'session', user: found.user, sessionId: found.session.id }, session, trail);
  }

  async function resolveSocketCredential(input: { cookieHeader?: string; token?: string; address?: string }): Promise<SocketCredentialResult> {
    if (input.token !== undefined && input.token !== '') {
      const key = await resolver.findKey(`Bearer ${input.token}`);
      if (!key) return { ok: false, status: 401, error: 'invalid API key' };
      const rate = await deps.rateLimit.hit(key.id);
      const result = rate.allowed ? await socketKeyDecision(key) : ({ ok: false, status: 429, error: KEY_RATE_LIMITED, retryAfterS: rate.retryAfterS } as const);
      deps.audit.record({
        keyId: key.id,
        endpoint: '/socket.io/',
        method: 'WS',
        clientAddress: input.address ?? 'unknown',
        status: result.ok ? 101 : result.status,
        at: deps.clock(),
      });
      return result;
    }
    const found = await resolver.session(readSessionCookie(input.cookieHeader), false);
    if (!found) return { ok: true, caller: ANONYMOUS };
    background(deps.presence.touch(found.user.id));
    return { ok: true, caller: { kind: 'session', user: found.user, sessionId: found.session.id } };
  }

  async function socketKeyDecision(key: NonNullable<Presented['key']>): Promise<SocketCredentialResult> {
    const presented = await resolver.presentKey(key);
    const decision = decideAccess(SOCKET_ACCESS, presented.credentials);
    if (!decision.allow) return { ok: false, status: decision.status, error: decision.error };
    const caller = toCaller(decision, presented);
    if (caller.user) background(deps.presence.touch(caller.user.id));
    return { ok: true, caller };
  }

  async function sameSiteSession(req: PresentedRequest, trail: AnswerTrail): Promise<Caller> {
    return isCrossSite(req, publicOrigin) ? ANONYMOUS : optionalSessionCaller(req, trail);
  }

  function sessionToEnd(req: PresentedRequest): string | undefined {
    if (!isOwnNavigation(req, publicOrigin)) throw new HttpError(403, 'cross-site logout refused: log out from this site');
    return readSessionCookie(req.cookie);
  }

  return {
    authenticate: (req, route, trail) => authenticate(req, route, trail),
    authenticateRecent: (req, route, trail) => authenticate(req, route, trail, true),
    resolveSocketCredential,
    sameSiteSession,
    sessionToEnd,
  };
}
