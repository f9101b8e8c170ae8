import { requestIdOf } from './request-id';

/**
 * What a caller presented, read once by its door (an HTTP request, a socket's handshake): the
 * credential check decides on this alone, never on a transport's request or response object.
 */
export interface PresentedRequest {
  /** Upper case (`POST`); socket commands carry their route's method. */
  method: string;
  /** The path as received, for the key audit. */
  path: string;
  /** Path and query string as received: a key in the URL is refused from it. */
  target: string;
  cookie?: string;
  authorization?: string;
  pluginSecret?: string;
  origin?: string;
  referer?: string;
  host?: string;
  /** Fetch metadata: `same-origin`, `same-site`, `cross-site` or `none`. */
  secFetchSite?: string;
  /** Kept with what a client sends us to keep (client logs), never used to decide. */
  userAgent?: string;
  /** The client's address, already derived from the peer and the trusted proxies. */
  clientAddress: string;
  requestId: string;
}

export type HeaderBag = Record<string, string | string[] | undefined>;

const first = (headers: HeaderBag, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The presented request of an HTTP request's (lower-cased) headers: the one reading for every HTTP door. */
export function presentedFromHeaders(
  headers: HeaderBag,
  line: { method: string; path: string; target: string },
  clientAddress: string,
): PresentedRequest {
  return {
    method: line.method.toUpperCase(),
    path: line.path,
    target: line.target,
    cookie: first(headers, 'cookie'),
    authorization: first(headers, 'authorization'),
    pluginSecret: first(headers, 'x-svc-plugin-secret'),
    origin: first(headers, 'origin'),
    referer: first(headers, 'referer'),
    host: first(headers, 'host'),
    secFetchSite: first(headers, 'sec-fetch-site'),
    userAgent: first(headers, 'user-agent'),
    clientAddress,
    requestId: requestIdOf(first(headers, 'x-request-id')),
  };
}
