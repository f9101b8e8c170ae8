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

/**
 * The presented request of an HTTP request's (lower-cased) headers: the one reading for every HTTP
 * door. The client's address may be given as a function, called on first use (most requests never
 * need it, and reading the peer costs a system call on uWS).
 */
export function presentedFromHeaders(
  headers: HeaderBag,
  line: { method: string; path: string; target: string },
  clientAddress: string | (() => string),
): PresentedRequest {
  return new HeaderPresented(headers, line, clientAddress);
}

/*
 * A class, its lazy address a getter on the prototype: a getter in an object literal (or
 * Object.defineProperty) makes V8 allocate an accessor pair per object in old space, which keeps
 * the request's closures alive through every scavenge until the next full collection. On the bare
 * native door that promoted about 4 MB per scavenge and paused the process 15-25 ms each time.
 */
class HeaderPresented implements PresentedRequest {
  readonly method: string;
  readonly path: string;
  readonly target: string;
  readonly cookie?: string;
  readonly authorization?: string;
  readonly pluginSecret?: string;
  readonly origin?: string;
  readonly referer?: string;
  readonly host?: string;
  readonly secFetchSite?: string;
  readonly userAgent?: string;
  readonly requestId: string;
  #address: string | (() => string);

  constructor(headers: HeaderBag, line: { method: string; path: string; target: string }, clientAddress: string | (() => string)) {
    this.method = line.method.toUpperCase();
    this.path = line.path;
    this.target = line.target;
    this.cookie = first(headers, 'cookie');
    this.authorization = first(headers, 'authorization');
    this.pluginSecret = first(headers, 'x-svc-plugin-secret');
    this.origin = first(headers, 'origin');
    this.referer = first(headers, 'referer');
    this.host = first(headers, 'host');
    this.secFetchSite = first(headers, 'sec-fetch-site');
    this.userAgent = first(headers, 'user-agent');
    this.requestId = requestIdOf(first(headers, 'x-request-id'));
    this.#address = clientAddress;
  }

  get clientAddress(): string {
    if (typeof this.#address === 'function') this.#address = this.#address();
    return this.#address;
  }
}
