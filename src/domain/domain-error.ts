/**
 * The one error type of the pure core. `kind` is what the transport maps to a status
 * (forbidden 403, not_found 404, conflict 409, invalid 400, payment_required 402, gone 410,
 * upstream_timeout 504: a game server or cloud host we asked did not answer, too_large 413);
 * the core itself knows nothing of HTTP.
 */
export type DomainErrorKind = 'invalid' | 'forbidden' | 'not_found' | 'conflict' | 'payment_required' | 'gone' | 'upstream_timeout' | 'too_large';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (message: string) => new DomainError('invalid', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const paymentRequired = (message: string) => new DomainError('payment_required', message);
export const upstreamTimeout = (message: string) => new DomainError('upstream_timeout', message);
export const tooLarge = (message: string) => new DomainError('too_large', message);

/** What every pure command returns: the new state with its events, or the reason it was refused. */
export type Outcome<S, E> = { ok: true; state: S; events: E[] } | { ok: false; error: DomainError };

export const succeed = <S, E>(state: S, events: E[] = []): Outcome<S, E> => ({ ok: true, state, events });
export const fail = <S, E>(error: DomainError): Outcome<S, E> => ({ ok: false, error });
