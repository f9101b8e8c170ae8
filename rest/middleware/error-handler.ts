import type { NextFunction, Request, Response } from 'express';
import { errorAnswer } from '../../src/door/error-answer';
import { notifyObservers, UNMATCHED_ROUTE } from '../../src/observability/request-observer';
import { expressDoorDeps, presentedOf, sendThroughExpress } from '../route-binder';

export { errorAnswer, type ErrorAnswer } from '../../src/door/error-answer';

/**
 * What the express app answers outside a bound route (a path no route matches, or an error the
 * router raised before the exchange ran, such as a malformed percent escape): the exchange's own
 * error mapping, request id and observers, with the route reported as 'unmatched'.
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

export function notFound(req: Request, res: Response): void {
  answerUnmatched(req, res, 404, {}, { error: 'not found' });
}
