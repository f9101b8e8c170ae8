import type { Logger } from 'pino';
import type { DoorRoutes } from '../door/door-routes';
import type { Caller } from '../identity/caller';
import type { LiveStore } from '../live/live-store';
import type { NotificationOutbox } from '../db/notification-outbox';
import type { EmSource } from '../db/orm';
import type { TournamentRepository } from '../db/tournament-repository';
import type { BanRepository } from '../db/ban-repository';
import { tournamentFeed } from '../../realtime/tournament-socket-handlers';
import { tournamentsRouter, type TournamentsRouterDeps } from '../../rest/routes/tournaments-routes';
import type { Authenticate } from '../../rest/route-binder';
import { NO_ENTRY_FEE, type EntryFeePort } from '../tournaments/entry-fee';
import { TournamentCommands } from '../tournaments/tournament-commands';
import { tournamentCompetitions } from '../tournaments/tournament-competitions';
import { publishTournament, startTournamentFeed, tournamentUpdate } from '../tournaments/tournament-feed';
import { TournamentReads } from '../tournaments/tournament-reads';
import type { TeamCompetitions } from '../teams/team-competitions';
import type { SocketServer } from '../../realtime/socket-server';

export interface TournamentsAssemblyDeps {
  db: EmSource;
  live: LiveStore;
  clock: () => number;
  logger: Pick<Logger, 'error' | 'warn'>;
  /** This instance's sockets: a room's deliveries (each subscriber after its snapshot), and the hook for new sockets' events. */
  sockets: Pick<SocketServer, 'deliverToRoom' | 'serveFeed'>;
  authenticate: Authenticate<Caller>;
  repo: TournamentRepository;
  /** A ban in force refuses entries, check-ins and results. */
  bans: Pick<BanRepository, 'activeBan'>;
  /** The cups area's fees; none by default. */
  fees?: EntryFeePort;
  /** The cups area's money entries (a PayPal order instead of the entry); none by default. */
  paidEntry?: TournamentsRouterDeps['paidEntry'];
  /** After every committed change of a tournament (the cups area sends queued refunds). */
  afterChange?: (id: number) => void;
  /** The notifications outbox (tournament.started, match_ready, completed); none: no events. */
  outbox?: NotificationOutbox;
}

export interface TournamentsAssembly {
  router: DoorRoutes;
  /** For the teams area: live entries, which lock rosters while a tournament runs. */
  competitions: TeamCompetitions;
  commands: TournamentCommands;
  reads: TournamentReads;
  close(): Promise<void>;
}

/** Tournaments: repository, commands and reads, the REST router, the realtime feed and socket events. */
export async function assembleTournaments(deps: TournamentsAssemblyDeps): Promise<TournamentsAssembly> {
  const { repo } = deps;
  const reads = new TournamentReads(repo, deps.clock);
  const commands = new TournamentCommands({
    repo,
    fees: deps.fees ?? NO_ENTRY_FEE,
    clock: deps.clock,
    outbox: deps.outbox,
    isBanned: async (em, userId, now) => (await deps.bans.activeBan(userId, now, em)) !== null,
    changed: (id) => {
      deps.afterChange?.(id);
      void publishTournament(deps.live, reads, id).catch((error: unknown) => deps.logger.warn({ err: error, tournamentId: id }, 'tournament update not published'));
    },
  });
  const stopFeed = await startTournamentFeed(deps.live, (room, event, payload) => deps.sockets.deliverToRoom(room, event, payload, payload.version), {
    read: (id) => tournamentUpdate(reads, id),
    onError: (error, id) => deps.logger.warn({ err: error, tournamentId: id }, 'tournament read again after a feed interruption failed'),
  });
  deps.sockets.serveFeed(tournamentFeed(reads));
  return {
    router: tournamentsRouter({ authenticate: deps.authenticate, commands, reads, paidEntry: deps.paidEntry }),
    competitions: tournamentCompetitions,
    commands,
    reads,
    close: () => stopFeed(),
  };
}
