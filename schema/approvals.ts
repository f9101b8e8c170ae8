import * as v from 'valibot';
import { IsoDateTime } from './common';
import { pageOf, PageQuery } from './paging';

/** Every kind the approvals module knows; a new kind adds its name here and one handler file in src/approvals/. */
export const APPROVAL_KINDS = ['team_transfer', 'forum_post'] as const;
export const ApprovalKindName = v.picklist(APPROVAL_KINDS);
export const ApprovalStatus = v.picklist(['pending', 'approved', 'denied']);

export const ApprovalView = v.object({
  id: v.number(),
  kind: v.string(),
  status: ApprovalStatus,
  /** What would change, in the kind's own shape (team_transfer: `{action, team_id, user_id, ...}`). */
  subject: v.unknown(),
  requested_by: v.nullable(v.number()),
  created_at: IsoDateTime,
  decided_by: v.nullable(v.number()),
  decided_at: v.nullable(IsoDateTime),
  reason: v.nullable(v.string()),
});
export type ApprovalView = v.InferOutput<typeof ApprovalView>;

export const ApprovalListQuery = v.object({
  status: v.optional(ApprovalStatus),
  kind: v.optional(ApprovalKindName),
  ...PageQuery,
});
export const ApprovalPage = pageOf('approvals', ApprovalView);
export const MyApprovalsQuery = v.object({ ...PageQuery });

const Reason = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(500, 'must be at most 500 characters'));
export const ApproveBody = v.object({ reason: v.optional(Reason) });
export const DenyBody = v.object({ reason: Reason });

/** A change that waits for an admin: 202 from a team route whose roster is locked. */
export const ApprovalPending = v.object({ approval_id: v.number() });
