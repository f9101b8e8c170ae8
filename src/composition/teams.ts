import type { DoorRoutes } from '../door/door-routes';
import type { Authenticate } from '../../rest/route-binder';
import { teamsRouter } from '../../rest/routes/teams-routes';
import type { Repositories } from './repositories';
import type { EmSource } from '../db/orm';
import type { Caller } from '../identity/caller';
import { NO_COMPETITIONS, type TeamCompetitions } from '../teams/team-competitions';
import { TeamService } from '../teams/team-service';
import { TeamTransfers } from '../teams/team-transfers';
import type { ApprovalsArea } from './approvals';
import type { LiveStore } from '../live/live-store';
import type { SocketServer } from '../../realtime/socket-server';
import type { Logger } from 'pino';
import { teamFeed, teamUpdateEmitter } from '../../realtime/team-socket-handlers';
import type { TeamView } from '../../schema/teams';
import { TeamFeed } from '../teams/team-feed';
import { toTeamView } from '../teams/team-views';

export interface TeamsArea {
  teams: TeamService;
  transfers: TeamTransfers;
  router: DoorRoutes;
  /** Stops the realtime feed. */
  close(): Promise<void>;
}

export interface TeamsInput {
  db: EmSource;
  repos: Pick<Repositories, 'teams' | 'teamInvites' | 'bans'>;
  clock: () => number;
  authenticate: Authenticate<Caller>;
  approvals: ApprovalsArea;
  /** The competitions area's answer about entries; none until it is wired. */
  competitions?: TeamCompetitions;
  /** Roster and profile changes pushed over socket.io (`team:subscribe`, `team:update`); none without it. */
  realtime?: { live: LiveStore; sockets: Pick<SocketServer, 'deliverToRoom' | 'serveFeed'>; logger: Pick<Logger, 'error'> };
}

/** Teams, their `team_transfer` approval kind, and their realtime room. */
export async function assembleTeams(input: TeamsInput): Promise<TeamsArea> {
  const competitions = input.competitions ?? NO_COMPETITIONS;
  let feed: TeamFeed<TeamView> | undefined;
  const changed = (teamId: number) => feed?.changed(teamId);
  const transfers = new TeamTransfers({ competitions, approvals: input.approvals.approvals, changed });
  input.approvals.registry.register(transfers);
  const { bans } = input.repos;
  const teams = new TeamService({
    db: input.db,
    repo: input.repos.teams,
    invites: input.repos.teamInvites,
    competitions,
    transfers,
    isBanned: async (userId) => (await bans.activeBan(userId, new Date(input.clock()))) !== null,
    clock: input.clock,
    changed,
  });
  const viewOf = async (id: number) => {
    const team = await teams.repo.get(id);
    return team && toTeamView(team);
  };
  if (input.realtime) {
    const { live, sockets, logger } = input.realtime;
    const onError = (error: unknown) => logger.error({ err: error }, 'team feed failed');
    feed = new TeamFeed<TeamView>({ live, read: async (id) => viewOf(id).then((team) => team && { version: team.version, team }), emit: teamUpdateEmitter(sockets), onError });
    await feed.start();
    sockets.serveFeed(teamFeed(viewOf));
  }
  return { teams, transfers, router: teamsRouter(teams, input.authenticate), close: async () => feed?.close() };
}
