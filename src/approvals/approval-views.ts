import type { ApprovalView } from '../../schema/approvals';
import type { ApprovalRecord } from '../db/approval-repository';

export const toApprovalView = (a: ApprovalRecord): ApprovalView => ({
  id: a.id,
  kind: a.kind,
  status: a.status,
  subject: a.subject,
  requested_by: a.requestedBy,
  created_at: a.createdAt.toISOString(),
  decided_by: a.decidedBy,
  decided_at: a.decidedAt?.toISOString() ?? null,
  reason: a.reason,
});
