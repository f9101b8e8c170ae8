import { conflict, DomainError, type DomainErrorKind } from '../domain/domain-error';

/**
 * A refusal that is about the credential, not the domain: 401. Shaped like a body-parser error
 * (`status`, `expose`), which the REST error mapping already turns into `{error}` with that status.
 */
export class UnauthorizedError extends Error {
  readonly status = 401;
  readonly expose = true;
  constructor(message = 'login required') {
    super(message);
    this.name = 'UnauthorizedError';
  }
}

/** A lobby so contended that the retries ran out; the client may simply try again. */
export const busy = (): DomainError => conflict('the lobby is busy, try again');

const STATUS_OF: Record<DomainErrorKind, number> = {
  invalid: 400,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
};

/**
 * The status the REST route would answer for an error the engine threw, for transports that are
 * not express (the socket `lobby:command` ack). Null: not a client error (a 500, to be logged).
 */
export function clientErrorOf(error: unknown): { status: number; error: string } | null {
  if (error instanceof DomainError) return { status: STATUS_OF[error.kind], error: error.message };
  if (error instanceof UnauthorizedError) return { status: 401, error: error.message };
  const e = error as { status?: unknown; expose?: unknown; message?: unknown } | null;
  if (e && e.expose === true && typeof e.status === 'number') return { status: e.status, error: String(e.message) };
  return null;
}
