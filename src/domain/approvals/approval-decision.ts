import { conflict, forbidden, type DomainError } from '../domain-error';

export type ApprovalState = 'pending' | 'approved' | 'denied';

/** An approval is decided once, by an admin; a decided one stays as it was decided. */
export function checkDecidable(status: ApprovalState, decider: { isAdmin: boolean }): DomainError | null {
  if (!decider.isAdmin) return forbidden('only an admin decides approvals');
  if (status !== 'pending') return conflict(`the approval was already ${status}`);
  return null;
}
