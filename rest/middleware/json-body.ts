import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '../http-error';

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/;

/**
 * uwebsockets-express has already buffered the body into `req.body` as a string (capped at
 * 1 MB by the native guard), so JSON is parsed here directly instead of through a stream parser.
 * An empty body without a Content-Type reads as `{}`: the specification's bodyless POSTs (join,
 * ready...) send nothing. Any other type is 415, even with an empty body, and so is a body
 * without a type: an HTML form (urlencoded, multipart, text/plain) is the one kind of cross-site
 * request a browser sends without asking, so these routes never take one (CSRF, with the Origin
 * rule in src/identity/request-site.ts).
 */
export function jsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (BODYLESS.has(req.method)) {
    req.body = {};
    return next();
  }
  const raw = typeof req.body === 'string' ? req.body : '';
  const type = String(req.headers['content-type'] ?? '').trim().toLowerCase();
  if (type === '' && raw === '') {
    req.body = {};
    return next();
  }
  if (!JSON_TYPE.test(type)) return next(new HttpError(415, 'request body must be application/json'));
  if (raw.trim() === '') {
    req.body = {};
    return next();
  }
  try {
    req.body = JSON.parse(raw);
  } catch {
    return next(new HttpError(400, 'malformed JSON body'));
  }
  next();
}
