import { Router } from 'express';
import { tournamentsRoutes as routes } from '../../schema/routes/tournaments-routes';
import { userOf, type Caller } from '../../src/identity/caller';
import type { TournamentCommands } from '../../src/tournaments/tournament-commands';
import type { TournamentReads } from '../../src/tournaments/tournament-reads';
import { toMatchView } from '../../src/tournaments/tournament-views';
import { bindRoute, RESPONDED, type Authenticate } from '../route-binder';

export interface TournamentsRouterDeps {
  authenticate: Authenticate<Caller>;
  commands: TournamentCommands;
  reads: TournamentReads;
  /** A money cup's entry: the PayPal order to pay (answered 200); null for any other tournament. */
  paidEntry?: (tournamentId: number, teamId: number, userId: number) => Promise<{ order_id: string; approval_url: string } | null>;
}

export function tournamentsRouter({ authenticate, commands, reads, paidEntry }: TournamentsRouterDeps): Router {
  const router = Router();

  bindRoute(router, routes.create, authenticate, async ({ caller, body }) => reads.tournament(await commands.create(body, userOf(caller).id)));
  bindRoute(router, routes.update, authenticate, async ({ params, body }) => {
    await commands.update(params.id, body);
    return reads.tournament(params.id);
  });
  bindRoute(router, routes.cancel, authenticate, async ({ params }) => {
    await commands.cancel(params.id);
    return reads.tournament(params.id);
  });
  bindRoute(router, routes.start, authenticate, async ({ params }) => {
    await commands.start(params.id);
    return reads.tournament(params.id);
  });
  bindRoute(router, routes.nextRound, authenticate, async ({ params }) => {
    await commands.nextRound(params.id);
    return reads.bracket(params.id);
  });
  bindRoute(router, routes.adminResult, authenticate, async ({ params, body }) =>
    toMatchView(
      await commands.adminResult(params.id, params.match, {
        homeScore: body.home_score, awayScore: body.away_score, forfeit: body.forfeit ?? null, resetDependents: body.reset_dependents ?? false,
      }),
    ),
  );

  bindRoute(router, routes.list, authenticate, ({ query }) => reads.list(query.status, query.page, query.limit));
  bindRoute(router, routes.get, authenticate, ({ params }) => reads.tournament(params.id));
  bindRoute(router, routes.bracket, authenticate, ({ params }) => reads.bracket(params.id));
  bindRoute(router, routes.standings, authenticate, ({ params }) => reads.standings(params.id));

  bindRoute(router, routes.enter, authenticate, async ({ caller, params, body, res }) => {
    const order = await paidEntry?.(params.id, body.team_id, userOf(caller).id);
    if (order) {
      res.status(200).json(order);
      return RESPONDED;
    }
    await commands.enter(params.id, body.team_id, userOf(caller).id);
    const entry = (await reads.tournament(params.id)).entries.find((e) => e.team.id === body.team_id);
    return entry;
  });
  bindRoute(router, routes.withdraw, authenticate, async ({ caller, params }) => {
    await commands.withdraw(params.id, params.team, userOf(caller).id);
  });
  bindRoute(router, routes.checkIn, authenticate, async ({ caller, params, body }) => {
    await commands.checkIn(params.id, body.team_id, userOf(caller).id);
    return { ok: true };
  });
  bindRoute(router, routes.report, authenticate, async ({ caller, params, body }) =>
    toMatchView(await commands.report(params.id, params.match, userOf(caller).id, body.home_score, body.away_score)),
  );
  bindRoute(router, routes.confirm, authenticate, async ({ caller, params }) =>
    toMatchView(await commands.confirm(params.id, params.match, userOf(caller).id)),
  );
  bindRoute(router, routes.dispute, authenticate, async ({ caller, params, body }) =>
    toMatchView(await commands.dispute(params.id, params.match, userOf(caller).id, body.reason)),
  );
  return router;
}
