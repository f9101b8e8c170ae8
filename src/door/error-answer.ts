import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../db/database-unavailable';
import { DomainError, type DomainErrorKind } from '../domain/domain-error';
import { LiveStoreUnavailable } from '../live/live-store-unavailable';
import { HttpError } from './http-refusal';

const STATUS_OF: Record<DomainErrorKind, number> = {
  invalid: 400,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  upstream_timeout: 504,
  too_large: 413,
};

const RETRY_SOON = { 'Retry-After': '1' };

export function statusOfDomainError(error: DomainError): number {
  return STATUS_OF[error.kind];
}

/**
 * Every error that leaves a handler passes through here once, so the status codes of the
 * specification live in one table. Unknown errors become 500 and are logged by the caller.
 */
export function toHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  if (error instanceof DomainError) return new HttpError(STATUS_OF[error.kind], error.message);
  // A store that cannot answer now: nothing was applied, the same request may be sent again.
  if (error instanceof LiveStoreUnavailable) return new HttpError(503, 'live state temporarily unavailable; retry shortly', RETRY_SOON);
  if (isDatabaseUnavailable(error)) return new HttpError(503, 'database temporarily unavailable; retry shortly', RETRY_SOON);
  // The router's percent-decoding of a path parameter failed (`/api/lobbies/%zz`): no such
  // resource, as the native routes answer; the message would quote the raw parameter.
  if (error instanceof URIError && (error as { status?: number }).status === 400) return new HttpError(404, 'not found');
  const e = error as { type?: string; status?: number; statusCode?: number; expose?: boolean; message?: string };
  // body-parser style errors (and our own JSON parser) carry a client status and are safe to show.
  if (e && e.expose === true && typeof (e.status ?? e.statusCode) === 'number') {
    return new HttpError((e.status ?? e.statusCode)!, e.type === 'entity.parse.failed' ? 'malformed JSON body' : String(e.message));
  }
  return null;
}

export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: { error: string };
}

/**
 * What a failed request is answered, at every door (express, native uWS, the upload, socket
 * commands): every error body is `{error}`; the stack of an unexpected one only reaches the log.
 */
export function errorAnswer(error: unknown, logger: Logger, request: { method: string; path: string }): ErrorAnswer {
  const mapped = toHttpError(error);
  if (mapped) return { status: mapped.status, headers: mapped.headers, body: { error: mapped.message } };
  logger.error({ err: error, method: request.method, path: request.path }, 'unhandled error');
  return { status: 500, headers: {}, body: { error: 'internal error' } };
}
