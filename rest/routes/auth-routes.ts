import { randomBytes } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { authRoutes } from '../../schema/routes/auth-routes';
import type { Caller } from '../../src/identity/caller';
import { userOf } from '../../src/identity/caller';
import type { Authenticator } from '../../src/identity/authenticator';
import type { ChatAccountLink } from '../../src/identity/chat-account-link';
import { loginCookies } from '../../src/identity/login-cookies';
import type { PlatformLogin } from '../../src/identity/platform-login';
import { loginStateClearCookie, loginStateSetCookie, sessionClearCookie, sessionSetCookie } from '../../src/identity/session-cookie';
import type { SessionStore } from '../../src/identity/session-store';
import { loadUserSelf } from '../../src/identity/user-views';
import { toHttpError } from '../error-mapping';
import { HttpError } from '../http-error';
import { bindRoute, RESPONDED, type Authenticate } from '../route-binder';

export interface AuthRouterDeps {
  authenticate: Authenticate<Caller>;
  authenticator: Pick<Authenticator, 'sessionToEnd'>;
  login: PlatformLogin;
  chat: ChatAccountLink;
  sessions: Pick<SessionStore, 'destroy'>;
  users: { clearChatAccount(userId: number): Promise<boolean> };
  premium: { premiumUntil(userId: number, now: Date): Promise<Date | null> };
  publicUrl: string;
  clock: () => number;
}

const LOGIN_STATE_BYTES = 24;

const queryOf = (req: Request) => new URLSearchParams(req.originalUrl.split('?')[1] ?? '');

const UNAVAILABLE_PAGE =
  '<!doctype html><meta charset="utf-8"><title>Login unavailable</title>' +
  '<h1>Login is unavailable for a moment</h1><p>The league database is not answering. Please log in again in a few seconds.</p><p><a href="/">Back to the league</a></p>';

function redirect(res: Response, location: string): typeof RESPONDED {
  res.redirect(302, location);
  return RESPONDED;
}

/** Login, logout and the chat account link: browser redirects that land back on the site. */
export function authRouter(deps: AuthRouterDeps): Router {
  const router = Router();
  const { authenticate } = deps;

  bindRoute(router, authRoutes.platformLogin, authenticate, ({ res }) => {
    const state = randomBytes(LOGIN_STATE_BYTES).toString('base64url');
    res.setHeader('Set-Cookie', loginStateSetCookie(state, deps.publicUrl));
    return redirect(res, deps.login.redirectUrl(state).href);
  });

  // The credential step hands over the browser's session and login-state cookies; the login's checks decide.
  bindRoute(router, authRoutes.platformCallback, loginCookies, async ({ caller: cookies, req, res, log }) => {
    let outcome;
    try {
      outcome = await deps.login.complete(queryOf(req), cookies.session, cookies.loginState);
    } catch (error) {
      // A store that cannot answer now is said as it is, a 503 page the browser can retry, not hidden behind a redirect.
      const mapped = toHttpError(error);
      if (mapped?.status === 503) {
        log.warn({ err: error }, 'login deferred: a store is unavailable');
        res.status(503).set({ ...mapped.headers, 'content-type': 'text/html; charset=utf-8' }).send(UNAVAILABLE_PAGE);
        return RESPONDED;
      }
      log.error({ err: error }, 'login failed');
      return redirect(res, '/?login_error=server_error');
    }
    // A login state is good for one callback, whatever its outcome.
    const clearState = loginStateClearCookie(deps.publicUrl);
    if (!outcome.ok) {
      log.info({ reason: outcome.reason }, 'login refused');
      res.setHeader('Set-Cookie', clearState);
      return redirect(res, `/?login_error=${outcome.reason}`);
    }
    log.info({ userId: outcome.user.id, platformId: outcome.user.platformId, isAdmin: outcome.user.isAdmin }, 'logged in');
    res.setHeader('Set-Cookie', [sessionSetCookie(outcome.cookieValue, deps.publicUrl), clearState]);
    return redirect(res, '/?logged_in=1');
  });

  // The credential step names the session to end, and refuses a link on another site (403).
  bindRoute(router, authRoutes.logout, (request) => deps.authenticator.sessionToEnd(request), async ({ caller: sessionCookie, res }) => {
    await deps.sessions.destroy(sessionCookie);
    res.setHeader('Set-Cookie', sessionClearCookie(deps.publicUrl));
    return redirect(res, '/');
  });

  bindRoute(router, authRoutes.me, authenticate, ({ caller }) => loadUserSelf(userOf(caller), deps.premium, new Date(deps.clock())));

  bindRoute(router, authRoutes.chatLink, authenticate, async ({ caller, res }) => {
    if (!deps.chat.configured) throw new HttpError(503, 'chat account linking is not configured');
    return redirect(res, (await deps.chat.begin(userOf(caller).id)).href);
  });

  // optionalSession on the contract: the credential step names the user who started the link, if any.
  bindRoute(router, authRoutes.chatCallback, authenticate, async ({ query, caller, res, log }) => {
    const userId = caller.user?.id ?? null;
    let outcome;
    try {
      outcome = await deps.chat.complete(query, userId);
    } catch (error) {
      log.error({ err: error }, 'chat link failed');
      return redirect(res, '/?chat_error=server_error');
    }
    if (!outcome.ok) {
      log.info({ reason: outcome.reason, userId }, 'chat link refused');
      return redirect(res, `/?chat_error=${outcome.reason}`);
    }
    return redirect(res, '/?chat_linked=1');
  });

  bindRoute(router, authRoutes.chatUnlink, authenticate, async ({ caller }) => {
    await deps.users.clearChatAccount(userOf(caller).id);
    return { ok: true };
  });

  return router;
}
