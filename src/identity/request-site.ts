/**
 * Whether a browser request comes from one of our own pages: the CSRF rule for everything the
 * session cookie authenticates (REST state changes, logout, socket.io handshakes).
 *
 * A page's request is ours when its Origin (or, without one, its Referer) is PUBLIC_URL's origin
 * or names the very host the request was addressed to (same-origin behind any host name the
 * deployment answers on). A request with neither header is not a browser's cross-site request
 * (browsers send Origin on every cross-site POST, fetch and websocket) and is allowed: bots,
 * curl and server-to-server clients send neither. An opaque `Origin: null` is not ours.
 */
export interface SiteHeaders {
  origin?: string;
  referer?: string;
  host?: string;
  /** Fetch metadata: `same-origin`, `same-site`, `cross-site` or `none` (typed in / bookmark). */
  secFetchSite?: string;
}

export type SiteVerdict = 'ours' | 'foreign' | 'unknown';

export function requestSite(headers: SiteHeaders, publicOrigin: string | null): SiteVerdict {
  const claimed = headers.origin ?? headers.referer;
  if (claimed === undefined || claimed === '') return 'unknown';
  const parsed = parseOrigin(claimed);
  if (parsed === null) return 'foreign';
  return parsed.origin === publicOrigin || (headers.host !== undefined && parsed.host === headers.host) ? 'ours' : 'foreign';
}

/** Fetch Metadata naming another site (`Sec-Fetch-Site: cross-site`): current browsers send it on every request, websockets included. */
export function isCrossSiteFetch(secFetchSite: string | undefined): boolean {
  return secFetchSite?.trim().toLowerCase() === 'cross-site';
}

/**
 * A top-level navigation (a link to GET /auth/logout) carries no Origin; Sec-Fetch-Site says where
 * it came from in current browsers, the Referer in older ones. Only `same-origin` and `none` (the
 * address typed or bookmarked) count as the user's own action; a sibling subdomain is not us.
 */
export function isOwnNavigation(headers: SiteHeaders, publicOrigin: string | null): boolean {
  if (headers.secFetchSite !== undefined && headers.secFetchSite !== '') return headers.secFetchSite === 'same-origin' || headers.secFetchSite === 'none';
  return requestSite(headers, publicOrigin) !== 'foreign';
}

export function originOfUrl(url: string): string | null {
  return parseOrigin(url)?.origin ?? null;
}

function parseOrigin(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.origin === 'null' ? null : url;
  } catch {
    return null;
  }
}
