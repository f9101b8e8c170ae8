import { SESSION_COOKIE, SESSION_IDLE_MS } from './session-store';

/**
 * The value of one cookie in a Cookie header; undefined when absent. The first of duplicates wins.
 * Every authenticated request reads it: the header is walked in place, not split into parts, and
 * only a value with a `%` is percent-decoded (decodeURIComponent changes nothing else).
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (let start = 0; start < header.length; ) {
    const semicolon = header.indexOf(';', start);
    const end = semicolon < 0 ? header.length : semicolon;
    const eq = header.indexOf('=', start);
    if (eq >= 0 && eq < end && header.slice(start, eq).trim() === name) {
      const trimmed = header.slice(eq + 1, end).trim();
      const raw = trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
      if (!raw.includes('%')) return raw;
      try {
        return decodeURIComponent(raw);
      } catch {
        return undefined;
      }
    }
    start = end + 1;
  }
  return undefined;
}

export const readSessionCookie = (header: string | undefined): string | undefined => readCookie(header, SESSION_COOKIE);

/**
 * HttpOnly so page scripts cannot read it, SameSite=Lax so cross-site POSTs do not carry it while
 * the redirect back from the identity provider (a top-level GET) still does, Secure on https.
 */
function attributes(publicUrl: string, maxAgeS: number, path = '/'): string {
  const secure = publicUrl.startsWith('https:') ? '; Secure' : '';
  return `Path=${path}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${secure}`;
}

export function sessionSetCookie(value: string, publicUrl: string): string {
  return `${SESSION_COOKIE}=${value}; ${attributes(publicUrl, Math.floor(SESSION_IDLE_MS / 1000))}`;
}

export function sessionClearCookie(publicUrl: string): string {
  return `${SESSION_COOKIE}=; ${attributes(publicUrl, 0)}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/**
 * The login state: set when this browser starts a login (GET /auth/platform), echoed in the
 * OpenID return_to, and required at the callback, so an assertion obtained in another browser
 * (login CSRF: being logged in as the attacker) is refused. Lax, because the provider's redirect
 * back is a top-level GET; scoped to the login paths and short-lived.
 */
export const LOGIN_STATE_COOKIE = 'league_login';
const LOGIN_STATE_PATH = '/auth/platform';
export const LOGIN_STATE_MAX_AGE_S = 600;

export const readLoginStateCookie = (header: string | undefined): string | undefined => readCookie(header, LOGIN_STATE_COOKIE);

export function loginStateSetCookie(value: string, publicUrl: string): string {
  return `${LOGIN_STATE_COOKIE}=${value}; ${attributes(publicUrl, LOGIN_STATE_MAX_AGE_S, LOGIN_STATE_PATH)}`;
}

export function loginStateClearCookie(publicUrl: string): string {
  return `${LOGIN_STATE_COOKIE}=; ${attributes(publicUrl, 0, LOGIN_STATE_PATH)}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}
