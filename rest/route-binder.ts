import type { Request, Response, Router } from 'express';
import type { BodyOf, ParamsOf, QueryOf, RouteContract } from '../schema/route-contract';
import { parseRouteInput } from './validation';

/** A handler that wrote its own response (redirects, streams) returns this instead of a body. */
export const RESPONDED = Symbol('responded');

export interface HandlerInput<R, C> {
  params: ParamsOf<R>;
  query: QueryOf<R>;
  body: BodyOf<R>;
  caller: C;
  req: Request;
  res: Response;
}

export type RouteHandler<R, C> = (input: HandlerInput<R, C>) => unknown | Promise<unknown>;

/** Resolves and checks the caller for a route (401/403 are thrown as HttpError). */
export type Authenticate<C> = (req: Request, res: Response, route: RouteContract) => Promise<C>;

const PUBLIC_CACHE = 'public, max-age=30';

/**
 * Binds one contract row to its handler: credentials, then path/query/body parsing with the
 * route's valibot schemas (a body must be a JSON object: schema/parse-input.ts), then the
 * handler, then the contract's success status. Handlers stay free of HTTP plumbing and cannot
 * answer with a status the contract does not declare.
 */
export function bindRoute<R extends RouteContract, C>(
  router: Router,
  route: R,
  authenticate: Authenticate<C>,
  handler: RouteHandler<R, C>,
): void {
  router[route.method](route.path, async (req: Request, res: Response) => {
    const caller = await authenticate(req, res, route);
    const { params, query, body } = parseRouteInput(route, { params: req.params, query: req.query, body: req.body === undefined ? {} : req.body });
    const result = await handler({ params, query, body, caller, req, res });
    if (result === RESPONDED) return;
    if (route.publicCache) res.setHeader('Cache-Control', PUBLIC_CACHE);
    if (route.success.status === 204) {
      res.status(204).end();
      return;
    }
    res.status(route.success.status).json(result);
  });
}
