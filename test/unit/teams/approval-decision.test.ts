import { describe, expect, it } from 'vitest';
import { checkDecidable } from '../../../src/domain/approvals/approval-decision';

describe('deciding an approval', () => {
  it.each([
    ['pending', true, null],
    ['approved', true, 'conflict'],
    ['denied', true, 'conflict'],
    ['pending', false, 'forbidden'],
    ['approved', false, 'forbidden'],
  ] as const)('in status %s by an admin=%s answers %s', (status, isAdmin, expected) => {
    expect(checkDecidable(status, { isAdmin })?.kind ?? null).toBe(expected);
  });
});
