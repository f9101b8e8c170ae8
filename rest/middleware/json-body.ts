import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '../http-error';

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * uwebsockets-express has already buffered the body into `req.body` as a string (capped at
 * 1 MB by the native guard), so JSON is parsed here directly instead of through a stream parser.
 * An empty body reads as `{}`: the specification's bodyless POSTs (join, ready...) send nothing.
 */
export function jsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (BODYLESS.has(req.method)) {
    req.body = {};
    return next();
  }
  const raw = typeof req.body === 'string' ? req.body : '';
  if (raw.trim() === '') {
    req.body = {};
    return next();
  }
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('multipart/')) return next();
  if (type && !type.includes('json')) {
    return next(new HttpError(415, 'request body must be application/json'));
  }
  try {
    req.body = JSON.parse(raw);
  } catch {
    return next(new HttpError(400, 'malformed JSON body'));
  }
  next();
}
