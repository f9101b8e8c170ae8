import type { Router } from 'express';
import type { Authenticate } from '../../rest/route-binder';
import { teamsRouter } from '../../rest/routes/teams-routes';
import { BanRepository } from '../db/ban-repository';
import type { EmSource } from '../db/orm';
import type { Caller } from '../identity/caller';
import { NO_COMPETITIONS, type TeamCompetitions } from '../teams/team-competitions';
import { TeamService } from '../teams/team-service';
import { TeamTransfers } from '../teams/team-transfers';
import type { ApprovalsArea } from './approvals';

export interface TeamsArea {
  teams: TeamService;
  transfers: TeamTransfers;
  router: Router;
}

export interface TeamsInput {
  db: EmSource;
  clock: () => number;
  authenticate: Authenticate<Caller>;
  approvals: ApprovalsArea;
  /** The competitions area's answer about entries; none until it is wired. */
  competitions?: TeamCompetitions;
  /** After a roster or profile change committed (realtime pushes hook in here). */
  changed?: (teamId: number) => void;
}

/** Teams and their `team_transfer` approval kind. */
export function assembleTeams(input: TeamsInput): TeamsArea {
  const competitions = input.competitions ?? NO_COMPETITIONS;
  const changed = (teamId: number) => input.changed?.(teamId);
  const transfers = new TeamTransfers({ competitions, approvals: input.approvals.approvals, changed });
  input.approvals.registry.register(transfers);
  const bans = new BanRepository(input.db);
  const teams = new TeamService({
    db: input.db,
    competitions,
    transfers,
    isBanned: async (userId) => (await bans.activeBan(userId, new Date(input.clock()))) !== null,
    clock: input.clock,
    changed,
  });
  return { teams, transfers, router: teamsRouter(teams, input.authenticate) };
}
