import type { DoorRoutes } from '../door/door-routes';
import { approvalsRouter } from '../../rest/routes/approvals-routes';
import { ApprovalRegistry } from '../approvals/approval-registry';
import { Approvals } from '../approvals/approvals';
import type { EmSource } from '../db/orm';
import type { Repositories } from './repositories';
import type { Caller } from '../identity/caller';
import type { Authenticate } from '../../rest/route-binder';

export interface ApprovalsArea {
  /** Areas with a kind of approval register its handler here (teams: team_transfer; community: forum_post). */
  registry: ApprovalRegistry;
  approvals: Approvals;
  router: DoorRoutes;
}

/** The one approvals module; the kinds are registered by their own areas' assemblies. */
export function assembleApprovals(input: { db: EmSource; repos: Pick<Repositories, 'approvals'>; clock: () => number; authenticate: Authenticate<Caller> }): ApprovalsArea {
  const registry = new ApprovalRegistry();
  const approvals = new Approvals({ db: input.db, repo: input.repos.approvals, registry, clock: input.clock });
  return { registry, approvals, router: approvalsRouter(approvals, input.authenticate) };
}
