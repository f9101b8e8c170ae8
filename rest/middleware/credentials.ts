import type { CredentialRequest } from '../../src/identity/authenticator';
import { clientAddress, trustedProxyMatcher } from '../client-address';
import { HttpError } from '../http-error';

/**
 * The HTTP side of the credential check (src/identity/authenticator.ts decides, by the spec's
 * Authentication rules): refusals become the one HTTP error type, and the client address
 * audited for a key use is derived here once, from the peer and trusted proxies only.
 */
export const refuseWithHttpError = (status: number, message: string, headers: Record<string, string> = {}): Error =>
  new HttpError(status, message, headers);

export function requestAddress(trustProxy: string[]): (req: CredentialRequest) => string {
  const isTrusted = trustedProxyMatcher(trustProxy);
  return (req) => {
    const forwarded = req.headers['x-forwarded-for'];
    return clientAddress(req.ip ?? '', Array.isArray(forwarded) ? forwarded.join(',') : forwarded, isTrusted);
  };
}
