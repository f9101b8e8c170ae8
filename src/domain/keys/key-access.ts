/**
 * The Authentication rules of the specification (rules 5, 8 and 9) as one pure decision. The
 * transport resolves whatever the request carried (cookie, Authorization header, plugin header)
 * and asks here whether the route lets it through.
 *
 * Decisions the specification leaves open, fixed here:
 * - A route that accepts no bearer keys ignores a presented key, as if none were sent: with no
 *   session that is 401. Likewise a session cookie on a key-only or plugin-only route is ignored.
 * - On a route that accepts some key kind, a presented key decides on its own, even beside a
 *   valid session: a client that sends a key means to act as the key, and falling back to the
 *   cookie would hide a revoked key. Unknown or revoked keys are 401.
 * - A valid key of a kind the route does not take (a premium key on an admin-key route, or the
 *   other way round) is 403: the credential is valid, its scope is missing.
 * - Key checks come before the role rule: a lapsed premium key or an admin key whose account is
 *   no longer admin is refused (403) whatever the route's role rule is.
 * - A route that accepts no credential at all is public and always allowed.
 */

export type RouteCredential = 'session' | 'premium' | 'admin' | 'plugin';
export type RoleRule = 'any' | 'admin' | 'premium';

export interface RouteAccess {
  accepts: readonly RouteCredential[];
  role: RoleRule;
}

/** The account behind a session or a key, as the transport loaded it for this request. */
export interface AccessUser {
  id: number;
  isAdmin: boolean;
  premiumActive: boolean;
}

export type ResolvedCredential =
  | { kind: 'none' }
  | { kind: 'session'; user: AccessUser }
  | { kind: 'key'; keyKind: 'premium' | 'admin'; revoked: boolean; user: AccessUser }
  /** A bearer header that matches no stored key (or is malformed). */
  | { kind: 'bad_key' }
  | { kind: 'plugin'; valid: boolean };

export type AccessDecision =
  | { allow: true; via: RouteCredential | 'public'; user: AccessUser | null }
  | { allow: false; status: 401 | 403; error: string };

const unauthorized = (error: string): AccessDecision => ({ allow: false, status: 401, error });
const forbidden = (error: string): AccessDecision => ({ allow: false, status: 403, error });

function roleRule(role: RoleRule, user: AccessUser | null): AccessDecision | null {
  if (role === 'admin' && !user?.isAdmin) return forbidden('admin only');
  if (role === 'premium' && !user?.premiumActive) return forbidden('premium membership required');
  return null;
}

const allowed = (via: RouteCredential, user: AccessUser | null, role: RoleRule): AccessDecision =>
  roleRule(role, user) ?? { allow: true, via, user };

type BearerCredential = Extract<ResolvedCredential, { kind: 'key' | 'bad_key' }>;
const isBearer = (c: ResolvedCredential): c is BearerCredential => c.kind === 'key' || c.kind === 'bad_key';

function decideKey(route: RouteAccess, key: BearerCredential): AccessDecision {
  if (key.kind === 'bad_key') return unauthorized('invalid API key');
  if (key.revoked) return unauthorized('API key revoked');
  if (!route.accepts.includes(key.keyKind)) return forbidden(`this route does not accept ${key.keyKind} keys`);
  if (key.keyKind === 'premium' && !key.user.premiumActive) return forbidden('premium membership has lapsed');
  if (key.keyKind === 'admin' && !key.user.isAdmin) return forbidden('the key account is not an admin');
  return allowed(key.keyKind, key.user, route.role);
}

/**
 * `presented` is everything the request carried (in any order); `{kind: 'none'}` entries and an
 * empty list both mean nothing was sent.
 */
export function decideAccess(
  route: RouteAccess,
  presented: ResolvedCredential | readonly ResolvedCredential[],
): AccessDecision {
  if (route.accepts.length === 0) return { allow: true, via: 'public', user: null };
  const credentials: readonly ResolvedCredential[] = Array.isArray(presented) ? presented : [presented as ResolvedCredential];

  const acceptsKeys = route.accepts.includes('premium') || route.accepts.includes('admin');
  const key = credentials.find(isBearer);
  if (acceptsKeys && key) return decideKey(route, key);

  const plugin = credentials.find((c) => c.kind === 'plugin');
  if (route.accepts.includes('plugin') && plugin?.kind === 'plugin') {
    return plugin.valid ? allowed('plugin', null, route.role) : unauthorized('invalid plugin secret');
  }

  const session = credentials.find((c) => c.kind === 'session');
  if (route.accepts.includes('session') && session?.kind === 'session') {
    return allowed('session', session.user, route.role);
  }

  return unauthorized(missingCredential(route));
}

function missingCredential(route: RouteAccess): string {
  if (route.accepts.includes('session')) return 'login required';
  if (route.accepts.includes('premium') || route.accepts.includes('admin')) return 'missing or invalid API key';
  return 'missing or invalid plugin secret';
}
