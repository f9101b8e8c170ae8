import { describe, expect, it } from 'vitest';
import { DomainError, type DomainErrorKind } from '../../../src/domain/domain-error';
import { toHttpError } from '../../../rest/error-mapping';
import { HttpError } from '../../../rest/http-error';

describe('error mapping', () => {
  it.each<[DomainErrorKind, number]>([
    ['invalid', 400],
    ['payment_required', 402],
    ['forbidden', 403],
    ['not_found', 404],
    ['conflict', 409],
    ['gone', 410],
    ['too_large', 413],
  ])('a domain %s error answers %i with its message', (kind, status) => {
    const mapped = toHttpError(new DomainError(kind, 'because'));
    expect(mapped).toMatchObject({ status, message: 'because' });
  });

  it('an HTTP error keeps its status and headers', () => {
    const error = new HttpError(429, 'slow down', { 'Retry-After': '7' });
    expect(toHttpError(error)).toBe(error);
  });

  it('a parser error that says it may be shown keeps its status', () => {
    const parseError = Object.assign(new Error('Unexpected token'), { status: 400, expose: true, type: 'entity.parse.failed' });
    expect(toHttpError(parseError)).toMatchObject({ status: 400, message: 'malformed JSON body' });
  });

  it('a path parameter the router could not percent-decode is a 404 that does not quote it', () => {
    const decodeError = Object.assign(new URIError("Failed to decode param '%zz'"), { status: 400 });
    expect(toHttpError(decodeError)).toMatchObject({ status: 404, message: 'not found' });
  });

  it('anything else is not mapped, so it becomes a logged 500', () => {
    expect(toHttpError(new Error('database on fire'))).toBeNull();
    expect(toHttpError(Object.assign(new Error('secret detail'), { status: 400 }))).toBeNull();
  });
});
