import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { toHttpError } from '../error-mapping';

export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: { error: string };
}

/**
 * What a failed request is answered, for every door of the REST API: every error body is
 * `{error}`; the stack of an unexpected one only reaches the log.
 */
export function errorAnswer(error: unknown, logger: Logger, request: { method: string; path: string }): ErrorAnswer {
  const mapped = toHttpError(error);
  if (mapped) return { status: mapped.status, headers: mapped.headers, body: { error: mapped.message } };
  logger.error({ err: error, method: request.method, path: request.path }, 'unhandled error');
  return { status: 500, headers: {}, body: { error: 'internal error' } };
}

/** The last middleware of the express app. */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const answer = errorAnswer(error, logger, req);
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    res.status(answer.status).json(answer.body);
  };
}

export function notFound(_req: Request, res: Response): void {
  res.status(404).json({ error: 'not found' });
}
