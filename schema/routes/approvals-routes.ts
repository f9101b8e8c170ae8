import { ApprovalListQuery, ApprovalPage, ApprovalView, ApproveBody, DenyBody, MyApprovalsQuery } from '../approvals';
import { IdParams } from '../admin';
import { defineRoute, tagAccess } from '../route-contract';

const tag = 'Approvals';
/** An admin's session or an admin key (none: 401; a non-admin: 403). */
const { admin } = tagAccess(tag);

export const approvalsRoutes = {
  list: defineRoute({
    operationId: 'listApprovals', method: 'get', path: '/api/admin/approvals', ...admin, query: ApprovalListQuery,
    summary: 'Approvals of every kind, newest first',
    description: 'Filter by `status` (pending, approved, denied) and `kind` (team_transfer, forum_post); paged (`page` from 1, `limit` 1 to 100, default 20; out of range: 400).',
    success: { status: 200, schema: ApprovalPage }, errors: [400, 401, 403],
  }),
  approve: defineRoute({
    operationId: 'approveApproval', method: 'post', path: '/api/admin/approvals/:id/approve', ...admin, params: IdParams, body: ApproveBody,
    summary: 'Approve a pending request and apply its change',
    description: "Every rule of the request's kind is checked again now and the change is applied in the same transaction as the decision and its admin audit row. A rule that fails now: 409 and the approval stays pending; already decided: 409.",
    bodyExample: { reason: 'roster change within the transfer window' },
    success: { status: 200, schema: ApprovalView }, errors: [400, 401, 403, 404, 409],
  }),
  deny: defineRoute({
    operationId: 'denyApproval', method: 'post', path: '/api/admin/approvals/:id/deny', ...admin, params: IdParams, body: DenyBody,
    summary: 'Deny a pending request',
    description: 'Nothing of the request is applied (a join waiting for approval withdraws its invite); the reason is kept on the approval and in the admin audit row. Already decided: 409.',
    bodyExample: { reason: 'transfer window closed' },
    success: { status: 200, schema: ApprovalView }, errors: [400, 401, 403, 404, 409],
  }),
  mine: defineRoute({
    operationId: 'listMyApprovals', method: 'get', path: '/api/approvals/mine', tag, auth: ['session'], query: MyApprovalsQuery,
    summary: "The caller's requests and their decisions",
    description: 'Every approval the caller asked for, of any kind, newest first, with its status and the reason given; paged as the admin list.',
    success: { status: 200, schema: ApprovalPage }, errors: [400, 401, 403],
  }),
};
