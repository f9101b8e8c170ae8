import { describe, expect, it } from 'vitest';
import { afterRefundAttempt, retryDelayMs } from '../../../src/domain/cups';

describe('a refund attempt', () => {
  it('is done when PayPal refunded, with its refund id', () => {
    expect(afterRefundAttempt({ kind: 'refunded', refundId: 'R1', status: 'COMPLETED' }, 1)).toEqual({
      status: 'refunded', refundId: 'R1', lastError: null, newRequestId: false, retryInMs: null,
    });
  });

  it('keeps its request id after no answer, so the retry cannot refund twice', () => {
    expect(afterRefundAttempt({ kind: 'unanswered', reason: 'timeout' }, 1)).toMatchObject({ status: 'failed', newRequestId: false, lastError: 'timeout' });
  });

  it('takes a new request id after a refusal, which the old one would replay', () => {
    expect(afterRefundAttempt({ kind: 'refused', reason: 'no' }, 1)).toMatchObject({ status: 'failed', newRequestId: true });
  });

  it('waits longer after every failure, up to ten minutes', () => {
    expect([1, 2, 3].map(retryDelayMs)).toEqual([1_000, 2_000, 4_000]);
    expect(retryDelayMs(40)).toBe(600_000);
  });
});
