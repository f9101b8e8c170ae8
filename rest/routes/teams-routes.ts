import { Router, type Response } from 'express';
import { teamsRoutes } from '../../schema/routes/teams-routes';
import { userOf, type Caller } from '../../src/identity/caller';
import type { TeamService } from '../../src/teams/team-service';
import type { TransferResult } from '../../src/teams/team-transfers';
import { toMembershipInterval, toMyTeamInvite, toTeamInvite, toTeamSummary, toTeamView } from '../../src/teams/team-views';
import { notFound } from '../../src/domain/domain-error';
import { approvalPending } from '../approval-pending';
import { bindRoute, RESPONDED, type Authenticate } from '../route-binder';

/** Teams: reads for anyone, changes for members (the rules decide who may do what). */
export function teamsRouter(teams: TeamService, authenticate: Authenticate<Caller>): Router {
  const router = Router();
  const account = (caller: Caller) => ({ id: userOf(caller).id, isAdmin: userOf(caller).isAdmin });

  bindRoute(router, teamsRoutes.search, authenticate, async ({ query }) => {
    const { teams: rows, total } = await teams.repo.search(query.q || undefined, query.page, query.limit);
    return { teams: rows.map(toTeamSummary), total, page: query.page, limit: query.limit };
  });

  bindRoute(router, teamsRoutes.myInvites, authenticate, async ({ caller }) => {
    const invites = await teams.invites.pendingFor(userOf(caller).id);
    const summaries = await teams.repo.summaries(invites.map((i) => i.teamId));
    return invites.flatMap((i) => {
      const team = summaries.get(i.teamId);
      return team ? [toMyTeamInvite(i, team)] : [];
    });
  });

  bindRoute(router, teamsRoutes.acceptInvite, authenticate, async ({ caller, params, res }) =>
    transferAnswer(res, await teams.accept(account(caller), params.id)),
  );

  bindRoute(router, teamsRoutes.declineInvite, authenticate, async ({ caller, params }) => {
    await teams.decline(account(caller), params.id);
    return { ok: true };
  });

  bindRoute(router, teamsRoutes.create, authenticate, async ({ caller, body }) => toTeamView(await teams.create(account(caller), body)));

  bindRoute(router, teamsRoutes.get, authenticate, async ({ params }) => {
    const team = await teams.repo.get(params.id);
    if (!team) throw notFound('no such team');
    return toTeamView(team);
  });

  bindRoute(router, teamsRoutes.history, authenticate, async ({ params }) => {
    const history = await teams.repo.history(params.id);
    if (!history) throw notFound('no such team');
    return history.map(toMembershipInterval);
  });

  bindRoute(router, teamsRoutes.edit, authenticate, async ({ caller, params, body }) => toTeamView(await teams.edit(account(caller), params.id, body)));

  bindRoute(router, teamsRoutes.disband, authenticate, async ({ caller, params }) => {
    await teams.disband(account(caller), params.id);
  });

  bindRoute(router, teamsRoutes.invite, authenticate, async ({ caller, params, body }) =>
    toTeamInvite(await teams.invite(account(caller), params.id, body.user_id)),
  );

  bindRoute(router, teamsRoutes.leave, authenticate, async ({ caller, params, res }) => transferAnswer(res, await teams.leave(account(caller), params.id)));

  bindRoute(router, teamsRoutes.kick, authenticate, async ({ caller, params, body, res }) =>
    transferAnswer(res, await teams.kick(account(caller), params.id, body.user_id)),
  );

  bindRoute(router, teamsRoutes.setRole, authenticate, async ({ caller, params, body }) =>
    toTeamView(await teams.setRole(account(caller), params.id, body.user_id, body.role)),
  );

  return router;
}

/** 200 `{ok}` when the change applied, 202 `{approval_id}` when it waits for an admin (the route's `alsoSuccess`). */
function transferAnswer(res: Response, result: TransferResult): { ok: true } | typeof RESPONDED {
  return result.applied ? { ok: true } : approvalPending(res, result.approvalId);
}
