import { Router } from 'express';
import { approvalsRoutes } from '../../schema/routes/approvals-routes';
import type { Approvals } from '../../src/approvals/approvals';
import { toApprovalView } from '../../src/approvals/approval-views';
import { userOf, type Caller } from '../../src/identity/caller';
import { bindRoute, type Authenticate } from '../route-binder';

/** The admin queue of approvals of every kind, and each requester's own list. */
export function approvalsRouter(approvals: Approvals, authenticate: Authenticate<Caller>): Router {
  const router = Router();
  const decider = (caller: Caller) => ({ id: userOf(caller).id, isAdmin: userOf(caller).isAdmin });

  bindRoute(router, approvalsRoutes.list, authenticate, async ({ query }) => {
    const { approvals: rows, total } = await approvals.list(query);
    return { approvals: rows.map(toApprovalView), total, page: query.page, limit: query.limit };
  });

  bindRoute(router, approvalsRoutes.approve, authenticate, async ({ caller, params, body }) =>
    toApprovalView(await approvals.approve(params.id, decider(caller), body.reason ?? null)),
  );

  bindRoute(router, approvalsRoutes.deny, authenticate, async ({ caller, params, body }) =>
    toApprovalView(await approvals.deny(params.id, decider(caller), body.reason)),
  );

  bindRoute(router, approvalsRoutes.mine, authenticate, async ({ caller, query }) => {
    const { approvals: rows, total } = await approvals.list({ requestedBy: userOf(caller).id, page: query.page, limit: query.limit });
    return { approvals: rows.map(toApprovalView), total, page: query.page, limit: query.limit };
  });

  return router;
}
