import { HttpError } from './http-refusal';

// Rule 1: a key never travels in a URL. One that does (recognised by its prefix, under any
// parameter name) is refused outright, on every route (anonymous ones too), rather than silently
// ignored, so the client learns that its key has leaked into logs and browser histories. It is no
// valid credential, hence 401 (rule 8). Other parameters are never read as keys.
const KEY_IN_URL = /svc_(pk|ak)_/i;

export const KEY_IN_URL_REFUSAL = 'API keys go in the Authorization header, never in the URL';

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

/**
 * The exchange's first credential check, before the route's own (src/door/exchange.ts): it holds
 * for every route whatever its credential step (the dev login, /metrics' token), at every door.
 */
export function refuseKeyInUrl(target: string): void {
  if (keyInUrl(target)) throw new HttpError(401, KEY_IN_URL_REFUSAL);
}
