import { conflict, type DomainError } from '../domain/domain-error';

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
