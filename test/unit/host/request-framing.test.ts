import { describe, expect, it } from 'vitest';
import { declaredLengthOf, framingRefusalOf } from '../../../host/request-framing';

const framing = (contentLength?: string, transferEncoding?: string, targetLength = 20) => ({ contentLength, transferEncoding, targetLength });

describe('the declared length', () => {
  it('is 0 without a body', () => {
    expect(declaredLengthOf(undefined, undefined)).toBe(0);
  });

  it('is unbounded for a chunked body', () => {
    expect(declaredLengthOf(undefined, 'chunked')).toBe(Number.POSITIVE_INFINITY);
  });

  it('is the first of repeated Content-Length headers, the one uWS reads the body by', () => {
    expect(declaredLengthOf('2, 2', undefined)).toBe(2);
  });
});

describe('framing', () => {
  it('passes a head without a body', () => {
    expect(framingRefusalOf(framing())).toBeNull();
  });

  it('passes repeated Content-Length headers that agree', () => {
    expect(framingRefusalOf(framing('2, 2'))).toBeNull();
  });

  it('refuses Content-Length headers that differ as ambiguous, 400', () => {
    expect(framingRefusalOf(framing('2, 40'))).toMatchObject({ status: '400 Bad Request', ambiguous: true });
  });

  it('refuses a chunked body with 411', () => {
    expect(framingRefusalOf(framing(undefined, 'chunked'))?.status).toBe('411 Length Required');
  });

  it('passes a chunked body to a streamed route', () => {
    expect(framingRefusalOf(framing(undefined, 'chunked'), { chunked: true })).toBeNull();
  });

  it('refuses a declared length over the limit with 413, the declared body still to come', () => {
    expect(framingRefusalOf(framing('11'), { limit: 10 })).toMatchObject({ status: '413 Payload Too Large', unreadBytes: 11 });
  });

  it('refuses a target over 8 KB with 414', () => {
    expect(framingRefusalOf(framing(undefined, undefined, 8 * 1024 + 1))?.status).toBe('414 URI Too Long');
  });
});
