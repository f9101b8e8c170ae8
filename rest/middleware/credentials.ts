import { clientAddress, trustedProxyMatcher } from '../client-address';
import { HttpError } from '../http-error';

/** A refusal as the one HTTP error type, for checks built outside the exchange (user action limits). */
export const refuseWithHttpError = (status: number, message: string, headers: Record<string, string> = {}): Error =>
  new HttpError(status, message, headers);

/** The client address of every door: the peer, or the right-most untrusted forwarded hop behind our proxies. */
export function addressResolver(trustProxy: string[]): (peer: string, forwardedFor: string | undefined) => string {
  const isTrusted = trustedProxyMatcher(trustProxy);
  return (peer, forwardedFor) => clientAddress(peer, forwardedFor, isTrusted);
}
