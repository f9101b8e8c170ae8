import { clientAddress, trustedProxyMatcher } from '../client-address';
import { HttpError } from '../http-error';
import { LruMap } from '../../src/collections/lru-map';

/** A refusal as the one HTTP error type, for checks built outside the exchange (user action limits). */
export const refuseWithHttpError = (status: number, message: string, headers: Record<string, string> = {}): Error =>
  new HttpError(status, message, headers);

/** Distinct (peer, X-Forwarded-For) pairs remembered; past it the least recently used go first. */
const REMEMBERED_ADDRESSES = 4_096;

/**
 * The client address of every door: the peer, or the right-most untrusted forwarded hop behind our
 * proxies. The answer depends on nothing but its two inputs and the configured proxies, and a client
 * sends many requests from one address: parsing it with ipaddr.js on every request cost about 1% of
 * a lobby command's server time, so the answers are remembered.
 */
export function addressResolver(trustProxy: string[]): (peer: string, forwardedFor: string | undefined) => string {
  const isTrusted = trustedProxyMatcher(trustProxy);
  const known = new LruMap<string, string>(REMEMBERED_ADDRESSES);
  return (peer, forwardedFor) => {
    const key = forwardedFor === undefined ? peer : `${peer}\n${forwardedFor}`;
    let address = known.get(key);
    if (address === undefined) {
      address = clientAddress(peer, forwardedFor, isTrusted);
      known.set(key, address);
    }
    return address;
  };
}
