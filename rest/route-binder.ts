import type { Application, Request, Response, Router } from 'express';
import type { RouteContract } from '../schema/route-contract';
import type { PresentedRequest } from '../src/door/presented-request';
import { presentedFromHeaders } from '../src/door/presented-request';
import { contentTypeOf, runExchange, type Answer, type Authenticate, type ExchangeDeps, type ExchangeHandler, type HandlerInput } from '../src/door/exchange';
import { parseJsonBody } from './middleware/json-body';

export { PreparedAnswer, RESPONDED, type Authenticate } from '../src/door/exchange';

/** What the express door adds to the exchange's deps: the client address from the peer and trusted proxies. */
export interface ExpressDoorDeps extends ExchangeDeps {
  addressOf: (peer: string, forwardedFor: string | undefined) => string;
}

/** Handlers that must write through express (redirects, the webhook's raw headers) also get `req` and `res`. */
export type RouteHandler<R, C> = (input: HandlerInput<R, C> & { req: Request; res: Response }) => unknown;

/** Marks a bound handler with its contract, so the app's assembly can tell which routes express serves. */
const BOUND_CONTRACT = Symbol('bound contract');

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
  // Derived on first use, as at the native door: most requests never ask for it.
  const address = () => {
    const forwarded = req.headers['x-forwarded-for'];
    return deps.addressOf(req.ip ?? '', Array.isArray(forwarded) ? forwarded.join(',') : forwarded);
  };
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
    res.setHeader('Content-Type', contentTypeOf(answer)!);
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
  const serve = (req: Request, res: Response) => {
    const input = () => {
      req.body = parseJsonBody(req.method, req.headers['content-type'], typeof req.body === 'string' ? req.body : '');
      return { params: req.params, query: req.query, body: req.body };
    };
    return exchangeThroughExpress(req, res, route, authenticate, input, (input) => {
      // A handler that writes its own answer (a redirect) carries the trail's headers too.
      for (const [name, value] of Object.entries(input.trail.headers)) res.setHeader(name, value);
      // Assigned, not spread: the exchange's logger is made only if the handler asks for it.
      return handler(Object.assign(input, { req, res }));
    });
  };
  router[route.method](route.path, Object.assign(serve, { [BOUND_CONTRACT]: route }));
}

/** One express request through the one exchange (a bound route, or the app's unmatched path). */
export function exchangeThroughExpress<R extends RouteContract, C>(
  req: Request,
  res: Response,
  route: R,
  authenticate: Authenticate<C>,
  input: () => { params: unknown; query: unknown; body: unknown },
  handler: ExchangeHandler<R, C>,
): void | Promise<void> {
  const deps = expressDoorDeps(req);
  return runExchange(deps, route, authenticate, { door: 'http', presented: presentedOf(req, deps), input }, handler, {
    send: (answer) => sendThroughExpress(res, answer),
    writtenStatus: () => res.statusCode,
  });
}

interface RouterLayer {
  route?: { stack: Array<{ handle: { [BOUND_CONTRACT]?: RouteContract } }> };
}

/** The contracts `bindRoute` bound on these routers, read off the routers' own route tables. */
export function contractsBoundOn(routers: Router[]): RouteContract[] {
  return routers.flatMap((router) =>
    (router.stack as RouterLayer[]).flatMap((layer) => (layer.route?.stack ?? []).flatMap((each) => each.handle[BOUND_CONTRACT] ?? [])),
  );
}
