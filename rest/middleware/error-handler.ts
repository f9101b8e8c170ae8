import type { NextFunction, Request, Response } from 'express';
import { unmatchedRoute } from '../../schema/routes/site-routes';
import { errorAnswer } from '../../src/door/error-answer';
import { NO_CREDENTIAL } from '../../src/door/exchange';
import { HttpError } from '../../src/door/http-refusal';
import { notifyObservers, UNMATCHED_ROUTE } from '../../src/observability/request-observer';
import { exchangeThroughExpress, expressDoorDeps, presentedOf, sendThroughExpress } from '../route-binder';

export { errorAnswer, type ErrorAnswer } from '../../src/door/error-answer';

/**
 * What the express app answers when the router raised an error before the exchange ran (a
 * malformed percent escape): the exchange's own error mapping, request id and observers, with the
 * route reported as 'unmatched'.
 */
function answerUnmatched(req: Request, res: Response, status: number, headers: Record<string, string>, body: unknown): void {
  const deps = expressDoorDeps(req);
  const started = performance.now();
  const presented = presentedOf(req, deps);
  sendThroughExpress(res, { status, headers: { ...headers, 'X-Request-Id': presented.requestId }, body });
  const record = { door: 'http' as const, method: presented.method, route: UNMATCHED_ROUTE, status, durationMs: performance.now() - started, requestId: presented.requestId };
  notifyObservers(deps.observers, record, deps.logger);
}

/** The last middleware of the express app. */
export function errorHandler() {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const answer = errorAnswer(error, expressDoorDeps(req).logger, req);
    answerUnmatched(req, res, answer.status, answer.headers, answer.body);
  };
}

const NOTHING = { params: {}, query: {}, body: {} };

/** A path no route matches: through the one exchange (a key in the URL 401, a shutdown 503), then 404 {error}. */
export function notFound(req: Request, res: Response): void {
  void exchangeThroughExpress(req, res, unmatchedRoute, NO_CREDENTIAL, () => NOTHING, () => {
    throw new HttpError(404, 'not found');
  });
}
