/**
 * Steam login as an OpenID 2.0 relying party, written by hand because the Steam-specific packages
 * hard-code the provider's host and the generic ones need XRDS discovery. Verification is always
 * "directly with the provider" (check_authentication): Steam offers no associations worth keeping.
 */

export const OPENID_NS = 'http://specs.openid.net/auth/2.0';
const IDENTIFIER_SELECT = 'http://specs.openid.net/auth/2.0/identifier_select';
const STEAM_CLAIMED_ID = /^https?:\/\/steamcommunity\.com\/openid\/id\/(\d{17})$/;
// OpenID 2.0 section 10.1: a positive assertion must sign at least these.
const REQUIRED_SIGNED = ['op_endpoint', 'return_to', 'response_nonce', 'assoc_handle', 'claimed_id', 'identity'];
const NONCE_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z/;

/** How far a response_nonce's timestamp may be from now. A nonce store must remember claimed nonces at least twice this long. */
export const NONCE_MAX_SKEW_MS = 5 * 60_000;
const DEFAULT_TIMEOUT_MS = 5_000;

export type AssertionFailure =
  | 'cancelled'
  | 'bad_mode'
  | 'bad_return_to'
  | 'bad_endpoint'
  | 'bad_claimed_id'
  | 'replayed_nonce'
  | 'stale_nonce'
  | 'not_verified'
  | 'provider_unreachable';

export type AssertionResult = { ok: true; platformId: string } | { ok: false; reason: AssertionFailure };

export interface LoginRedirectOptions {
  providerUrl: string;
  returnTo: string;
  realm: string;
}

export interface VerifyAssertionOptions {
  providerUrl: string;
  /** The return_to we sent; its origin, path and any query parameters must come back unchanged. */
  expectedReturnTo: string;
  /** The callback request's whole query string (openid.* fields and return_to's own parameters). */
  query: URLSearchParams | Record<string, string>;
  /** Records the nonce; false when it was seen before. Throws are not caught: a broken store is not a login failure. */
  claimNonce: (nonce: string) => Promise<boolean>;
  fetch?: typeof fetch;
  /** Epoch milliseconds: the server's clock. */
  now: number;
  timeoutMs?: number;
}

export function buildLoginRedirect({ providerUrl, returnTo, realm }: LoginRedirectOptions): URL {
  const url = new URL(providerUrl);
  url.searchParams.set('openid.ns', OPENID_NS);
  url.searchParams.set('openid.mode', 'checkid_setup');
  url.searchParams.set('openid.return_to', returnTo);
  url.searchParams.set('openid.realm', realm);
  url.searchParams.set('openid.identity', IDENTIFIER_SELECT);
  url.searchParams.set('openid.claimed_id', IDENTIFIER_SELECT);
  return url;
}

export async function verifyAssertion(options: VerifyAssertionOptions): Promise<AssertionResult> {
  const params = options.query instanceof URLSearchParams ? options.query : new URLSearchParams(options.query);
  const field = (name: string) => params.get(`openid.${name}`);

  // Local checks first: they cost nothing and keep forged callbacks from reaching the provider.
  const mode = field('mode');
  if (mode === 'cancel') return refuse('cancelled');
  if (mode !== 'id_res' || field('ns') !== OPENID_NS) return refuse('bad_mode');
  if (!returnToMatches(field('return_to'), options.expectedReturnTo, params)) return refuse('bad_return_to');
  if (!sameUrl(field('op_endpoint'), options.providerUrl)) return refuse('bad_endpoint');

  const claimedId = field('claimed_id');
  const steamId = claimedId === null ? null : STEAM_CLAIMED_ID.exec(claimedId);
  if (steamId === null || field('identity') !== claimedId) return refuse('bad_claimed_id');

  const signed = (field('signed') ?? '').split(',');
  if (!REQUIRED_SIGNED.every((name) => signed.includes(name)) || !field('sig')) return refuse('not_verified');

  const nonce = field('response_nonce') ?? '';
  const issuedAt = nonceTimestamp(nonce);
  if (issuedAt === null) return refuse('not_verified');
  if (Math.abs(options.now - issuedAt) > NONCE_MAX_SKEW_MS) return refuse('stale_nonce');

  const verdict = await askProvider(options.providerUrl, params, options.fetch ?? fetch, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  if (verdict !== 'valid') return refuse(verdict);
  // Claimed only now, so a forged assertion cannot burn the nonce of a genuine one.
  if (!(await options.claimNonce(nonce))) return refuse('replayed_nonce');
  return { ok: true, platformId: steamId[1] };
}

const refuse = (reason: AssertionFailure): AssertionResult => ({ ok: false, reason });

function parseHttpUrl(value: string | null): URL | null {
  if (value === null) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

function sameUrl(a: string | null, b: string): boolean {
  const left = parseHttpUrl(a);
  const right = parseHttpUrl(b);
  return left !== null && right !== null && left.href === right.href;
}

// OpenID 2.0 section 11.1: same scheme, authority and path; return_to's own query parameters
// must also be on the request. Ours must survive too, so a state parameter cannot be swapped.
function returnToMatches(returnTo: string | null, expected: string, request: URLSearchParams): boolean {
  const actual = parseHttpUrl(returnTo);
  const wanted = parseHttpUrl(expected);
  if (actual === null || wanted === null) return false;
  if (actual.origin !== wanted.origin || actual.pathname !== wanted.pathname) return false;
  for (const [key, value] of wanted.searchParams) {
    if (!actual.searchParams.getAll(key).includes(value)) return false;
  }
  for (const [key, value] of actual.searchParams) {
    if (!request.getAll(key).includes(value)) return false;
  }
  return true;
}

function nonceTimestamp(nonce: string): number | null {
  const parts = NONCE_TIMESTAMP.exec(nonce);
  if (parts === null) return null;
  const [year, month, day, hour, minute, second] = parts.slice(1).map(Number);
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

async function askProvider(
  providerUrl: string,
  params: URLSearchParams,
  doFetch: typeof fetch,
  timeoutMs: number,
): Promise<'valid' | 'not_verified' | 'provider_unreachable'> {
  const body = new URLSearchParams();
  for (const [key, value] of params) {
    if (key.startsWith('openid.') && key !== 'openid.mode') body.append(key, value);
  }
  body.set('openid.mode', 'check_authentication');
  try {
    const response = await doFetch(providerUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    // A 4xx is the provider refusing the request (an OpenID error response); a 5xx says nothing.
    if (response.status >= 500) return 'provider_unreachable';
    const answer = keyValueForm(await response.text());
    return response.ok && answer.get('is_valid') === 'true' ? 'valid' : 'not_verified';
  } catch {
    return 'provider_unreachable';
  }
}

// OpenID 2.0 section 4.1.1: one "key:value" per line, each line ending in \n.
function keyValueForm(text: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) pairs.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return pairs;
}
