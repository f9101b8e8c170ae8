import { Router } from 'express';
import { devLoginRoutes } from '../../schema/routes/dev-login-routes';
import type { DevLogin } from '../../src/identity/dev-login';
import { loginCookies } from '../../src/identity/login-cookies';
import { sessionSetCookie } from '../../src/identity/session-cookie';
import { HttpError } from '../http-error';
import { bindRoute, RESPONDED } from '../route-binder';

export interface DevLoginRouterDeps {
  /** Null when DEV_LOGIN is off: the route then answers 404 as if it did not exist. */
  devLogin: DevLogin | null;
  publicUrl: string;
}

const anonymous = async () => null;

export function devLoginRouter(deps: DevLoginRouterDeps): Router {
  const router = Router();
  bindRoute(router, devLoginRoutes.devLoginStatus, anonymous, () => ({ enabled: deps.devLogin !== null }));
  bindRoute(router, devLoginRoutes.devLogin, loginCookies, async ({ query, caller: cookies, res }) => {
    if (!deps.devLogin) throw new HttpError(404, 'dev login is off (DEV_LOGIN=1 enables it outside production)');
    const { cookieValue } = await deps.devLogin.login(query.name, query.admin === '1', cookies.session);
    res.setHeader('Set-Cookie', sessionSetCookie(cookieValue, deps.publicUrl));
    res.redirect(302, '/?logged_in=1');
    return RESPONDED;
  });
  return router;
}
