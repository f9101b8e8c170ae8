import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { toHttpError } from '../error-mapping';

/** The last middleware: every error body is `{error}`; the stack of an unexpected one only reaches the log. */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const mapped = toHttpError(error);
    if (mapped) {
      for (const [name, value] of Object.entries(mapped.headers)) res.setHeader(name, value);
      res.status(mapped.status).json({ error: mapped.message });
      return;
    }
    logger.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
    res.status(500).json({ error: 'internal error' });
  };
}

export function notFound(_req: Request, res: Response): void {
  res.status(404).json({ error: 'not found' });
}
