import type { PresentedRequest } from '../door/presented-request';
import { readLoginStateCookie, readSessionCookie } from './session-cookie';

/**
 * The credential step of the routes that log a browser in (the platform login's callback, the dev
 * login): the session cookie the browser holds, which a login replaces, and its login-state cookie
 * (the OpenID state it began at /auth/platform). Nothing is refused here: the login's own checks
 * decide, and a refusal is a redirect. Read from what the request presented, like every credential.
 */
export interface LoginCookies {
  session: string | undefined;
  loginState: string | undefined;
}

export function loginCookies(request: PresentedRequest): LoginCookies {
  return { session: readSessionCookie(request.cookie), loginState: readLoginStateCookie(request.cookie) };
}
