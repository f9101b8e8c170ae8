import type { Application, Request, Response, Router } from 'express';
import type { RouteContract } from '../schema/route-contract';
import type { PresentedRequest } from '../src/door/presented-request';
import { presentedFromHeaders } from '../src/door/presented-request';
import { runExchange, type Answer, type Authenticate, type ExchangeDeps, type HandlerInput } from '../src/door/exchange';
import { parseJsonBody } from './middleware/json-body';

export { PreparedAnswer, RESPONDED, type Authenticate } from '../src/door/exchange';

/** What the express door adds to the exchange's deps: the client address from the peer and trusted proxies. */
export interface ExpressDoorDeps extends ExchangeDeps {
  addressOf: (peer: string, forwardedFor: string | undefined) => string;
}

/** Handlers that must write through express (redirects, the webhook's raw headers) also get `req` and `res`. */
export type RouteHandler<R, C> = (input: HandlerInput<R, C> & { req: Request; res: Response }) => unknown;

const DOOR_DEPS = 'exchangeDeps';

/** Called once by the app's assembly (rest-app.ts): every route bound on it runs with these deps. */
export function setExpressDoorDeps(app: Application, deps: ExpressDoorDeps): void {
  app.locals[DOOR_DEPS] = deps;
}

export function expressDoorDeps(req: Request): ExpressDoorDeps {
  return req.app.locals[DOOR_DEPS] as ExpressDoorDeps;
}

/** The presented request of an express request: the one header reading of src/door/presented-request.ts. */
export function presentedOf(req: Request, deps: ExpressDoorDeps): PresentedRequest {
  const forwarded = req.headers['x-forwarded-for'];
  const address = deps.addressOf(req.ip ?? '', Array.isArray(forwarded) ? forwarded.join(',') : forwarded);
  return presentedFromHeaders(req.headers, { method: req.method, path: req.path, target: req.originalUrl }, address);
}

/** Writes an exchange's answer through express (uws-response-fixes.ts keeps it one socket write). */
export function sendThroughExpress(res: Response, answer: Answer): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.status(answer.status);
  if (answer.bytes) {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(answer.bytes);
  } else if (answer.body === undefined) res.end();
  else res.json(answer.body);
}

/**
 * The express door: binds one contract row to its handler through the one exchange
 * (src/door/exchange.ts: in-flight, credentials, parse by contract, handler, error mapping,
 * observers). The body uwebsockets-express buffered is parsed as JSON only after the credential
 * step, as at every door.
 */
export function bindRoute<R extends RouteContract, C>(router: Router, route: R, authenticate: Authenticate<C>, handler: RouteHandler<R, C>): void {
  router[route.method](route.path, (req: Request, res: Response) => {
    const deps = expressDoorDeps(req);
    const input = () => {
      req.body = parseJsonBody(req.method, req.headers['content-type'], typeof req.body === 'string' ? req.body : '');
      return { params: req.params, query: req.query, body: req.body };
    };
    return runExchange(
      deps,
      route,
      authenticate,
      { door: 'http', presented: presentedOf(req, deps), input },
      ({ trail, ...parsed }) => {
        // A handler that writes its own answer (a redirect) carries the trail's headers too.
        for (const [name, value] of Object.entries(trail.headers)) res.setHeader(name, value);
        return handler({ ...parsed, req, res });
      },
      { send: (answer) => sendThroughExpress(res, answer), writtenStatus: () => res.statusCode },
    );
  });
}
