import type { RouteContract } from '../../schema/route-contract';
import { decideAccess, type AccessDecision, type RouteAccess } from '../domain/keys/key-access';
import { ANONYMOUS, type Caller } from './caller';
import type { KeyAuditLog } from './key-audit-log';
import type { KeyRateLimit } from './key-rate-limit';
import { CredentialResolver, isBearerAttempt, type CredentialSources, type Presented } from './presented-credentials';
import { originOfUrl, requestSite } from './request-site';
import { readSessionCookie, sessionSetCookie } from './session-cookie';

/** The parts of an HTTP request the credential check reads (an express Request has them all). */
export interface CredentialRequest {
  headers: Record<string, string | string[] | undefined>;
  method: string;
  /** Path and query string as received. */
  url: string;
  path: string;
  /** The transport's peer address (raw text under uwebsockets-express; see rest/client-address.ts). */
  ip?: string;
}

export interface CredentialResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  once(event: 'finish', listener: () => void): unknown;
}

export type RouteRule = Pick<RouteContract, 'auth' | 'role'>;

export interface AuthenticatorDeps extends CredentialSources {
  presence: { touch(userId: number): Promise<void> | undefined };
  rateLimit: KeyRateLimit;
  audit: KeyAuditLog;
  publicUrl: string;
  /** The client address of a request (rest/client-address.ts with the trusted proxies). */
  addressOf: (req: CredentialRequest) => string;
  /** The error a refusal throws: the HTTP layer's HttpError, so its error handler answers it. */
  refuse: (status: number, message: string, headers?: Record<string, string>) => Error;
  onBackgroundError?: (error: unknown) => void;
}

export type SocketCredentialResult =
  | { ok: true; caller: Caller }
  | { ok: false; status: 401 | 403 | 429; error: string };

export interface Authenticator {
  /** For bindRoute: resolves the caller a route accepts or throws 400/401/403/429 (spec, Authentication). */
  authenticate(req: CredentialRequest, res: CredentialResponse, route: RouteRule): Promise<Caller>;
  /**
   * The same for the hot routes (lobby commands): the session and its user's row may be copies up to
   * half a second old (recent-reads.ts) instead of a store round trip and a Postgres query per
   * request; admin routes still read fresh.
   */
  authenticateRecent(req: CredentialRequest, res: CredentialResponse, route: RouteRule): Promise<Caller>;
  /** socket.io handshake: the session cookie, or a premium/admin key as `auth.token`; nothing is anonymous. */
  resolveSocketCredential(input: { cookieHeader?: string; token?: string; address?: string }): Promise<SocketCredentialResult>;
  /** The session a cookie header names, for routes that work with or without one (login, logout, chat callback). */
  optionalSession(cookieHeader: string | undefined): Promise<Presented['session'] | null>;
}

const header = (req: CredentialRequest, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

// Rule 1: a key never travels in a URL. One that does (recognised by its prefix, under any
// parameter name) is refused outright with 400 rather than silently ignored, so the client learns
// that its key has leaked into logs and browser histories. Other parameters are never read as keys.
const KEY_IN_URL = /svc_(pk|ak)_/i;

export function keyInUrl(url: string): boolean {
  const q = url.indexOf('?');
  if (q < 0) return false;
  const query = url.slice(q + 1);
  if (KEY_IN_URL.test(query)) return true;
  try {
    return KEY_IN_URL.test(decodeURIComponent(query));
  } catch {
    return false;
  }
}

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

export function createAuthenticator(deps: AuthenticatorDeps): Authenticator {
  const resolver = new CredentialResolver(deps);
  const publicOrigin = originOfUrl(deps.publicUrl);
  const background = (work: Promise<void> | undefined) => void work?.catch((error: unknown) => deps.onBackgroundError?.(error));

  async function authenticate(req: CredentialRequest, res: CredentialResponse, route: RouteRule, recent = false): Promise<Caller> {
    if (keyInUrl(req.url)) throw deps.refuse(400, 'API keys go in the Authorization header, never in the URL');
    if (route.auth.length === 0) return ANONYMOUS;
    const access: RouteAccess = { accepts: route.auth, role: route.role ?? 'any' };
    const raw = {
      sessionCookie: readSessionCookie(header(req, 'cookie')),
      authorization: header(req, 'authorization'),
      pluginSecret: header(req, 'x-svc-plugin-secret'),
    };

    const takesKeys = route.auth.includes('premium') || route.auth.includes('admin');
    let key: Awaited<ReturnType<CredentialResolver['findKey']>> | undefined;
    if (takesKeys && isBearerAttempt(raw.authorization)) {
      key = await resolver.findKey(raw.authorization);
      if (key) {
        // Every use of a real key is audited with the status the client finally got (rule 6),
        // refusals included; the row is queued in memory, written later in a batch.
        const use = { keyId: key.id, endpoint: req.path, method: req.method, clientAddress: deps.addressOf(req), at: deps.clock() };
        res.once('finish', () => deps.audit.record({ ...use, status: res.statusCode }));
        const rate = await deps.rateLimit.hit(key.id);
        if (!rate.allowed) {
          throw deps.refuse(429, 'rate limit exceeded: 60 requests per minute per key', { 'Retry-After': String(rate.retryAfterS) });
        }
      }
    }

    // Admin routes read the session and the user's row fresh: removing an admin flag, or logging
    // out on another instance, takes effect there at once.
    const needs = { accepts: route.auth, premiumForSession: route.role === 'premium', recent: recent && route.role !== 'admin' };
    const presented = await resolver.resolve(raw, needs, key);
    const decision = decideAccess(access, presented.credentials);
    if (!decision.allow) throw deps.refuse(decision.status, decision.error);
    const caller = toCaller(decision, presented);
    // CSRF: the cookie rides along on another site's form or fetch too (request-site.ts).
    // A key in a header is never sent by a browser on its own, so key callers are not checked.
    if (caller.kind === 'session' && !SAFE_METHODS.has(req.method)) {
      const site = requestSite({ origin: header(req, 'origin'), referer: header(req, 'referer'), host: header(req, 'host') }, publicOrigin);
      if (site === 'foreign') throw deps.refuse(403, 'cross-site request refused: state changes with the session cookie come from this site\'s pages only');
    }
    if (caller.user) background(deps.presence.touch(caller.user.id));
    // Sliding expiry: the store renewed the session, so the browser's cookie is renewed with it.
    if (caller.kind === 'session' && presented.session?.session.refreshed) {
      res.setHeader('Set-Cookie', sessionSetCookie(presented.session.cookieValue, deps.publicUrl));
    }
    return caller;
  }

  async function resolveSocketCredential(input: { cookieHeader?: string; token?: string; address?: string }): Promise<SocketCredentialResult> {
    if (input.token !== undefined && input.token !== '') {
      const key = await resolver.findKey(`Bearer ${input.token}`);
      if (!key) return { ok: false, status: 401, error: 'invalid API key' };
      const rate = await deps.rateLimit.hit(key.id);
      const result = rate.allowed ? await socketKeyDecision(key) : ({ ok: false, status: 429, error: 'rate limit exceeded' } as const);
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

  async function optionalSession(cookieHeader: string | undefined): Promise<Presented['session'] | null> {
    const found = await resolver.session(readSessionCookie(cookieHeader), false);
    if (!found) return null;
    const { access: _access, ...session } = found;
    return session;
  }

  return {
    authenticate: (req, res, route) => authenticate(req, res, route),
    authenticateRecent: (req, res, route) => authenticate(req, res, route, true),
    resolveSocketCredential,
    optionalSession,
  };
}
