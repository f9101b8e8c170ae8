import type { Logger } from 'pino';
import type { Router } from 'express';
import type { Caller } from '../identity/caller';
import type { LiveStore } from '../live/live-store';
import type { NotificationOutbox } from '../db/notification-outbox';
import type { EmSource } from '../db/orm';
import { TournamentRepository } from '../db/tournament-repository';
import { handleTournamentEvents, TOURNAMENT_EVENTS, type TournamentSocket } from '../../realtime/tournament-socket-handlers';
import { tournamentsRouter } from '../../rest/routes/tournaments-routes';
import type { Authenticate } from '../../rest/route-binder';
import { NO_ENTRY_FEE, type EntryFeePort } from '../tournaments/entry-fee';
import { TournamentCommands } from '../tournaments/tournament-commands';
import { tournamentCompetitions } from '../tournaments/tournament-competitions';
import { publishTournament, startTournamentFeed } from '../tournaments/tournament-feed';
import { TournamentReads } from '../tournaments/tournament-reads';
import type { TeamCompetitions } from '../teams/team-competitions';
import type { SocketServer } from '../../realtime/socket-server';

export interface TournamentsAssemblyDeps {
  db: EmSource;
  live: LiveStore;
  clock: () => number;
  logger: Pick<Logger, 'error' | 'warn'>;
  /** This instance's sockets: a room emit, and the hook for new sockets' events. */
  sockets: {
    emitToRoom(room: string, event: string, payload: unknown): void;
    onConnection(handler: (socket: TournamentSocket) => void): void;
  };
  authenticate: Authenticate<Caller>;
  /** The cups area's fees; none by default. */
  fees?: EntryFeePort;
  /** The notifications outbox (tournament.started, match_ready, completed); none: no events. */
  outbox?: NotificationOutbox;
}

export interface TournamentsAssembly {
  router: Router;
  /** For the teams area: live entries, which lock rosters while a tournament runs. */
  competitions: TeamCompetitions;
  commands: TournamentCommands;
  reads: TournamentReads;
  close(): Promise<void>;
}

/** Tournaments: repository, commands and reads, the REST router, the realtime feed and socket events. */
export async function assembleTournaments(deps: TournamentsAssemblyDeps): Promise<TournamentsAssembly> {
  const repo = new TournamentRepository(deps.db);
  const reads = new TournamentReads(repo, deps.clock);
  const commands = new TournamentCommands({
    repo,
    fees: deps.fees ?? NO_ENTRY_FEE,
    clock: deps.clock,
    outbox: deps.outbox,
    changed: (id) =>
      void publishTournament(deps.live, reads, id).catch((error: unknown) => deps.logger.warn({ err: error, tournamentId: id }, 'tournament update not published')),
  });
  const stopFeed = await startTournamentFeed(deps.live, (room, event, payload) => deps.sockets.emitToRoom(room, event, payload));
  deps.sockets.onConnection((socket) => handleTournamentEvents(socket, reads, deps.logger));
  return {
    router: tournamentsRouter({ authenticate: deps.authenticate, commands, reads }),
    competitions: tournamentCompetitions,
    commands,
    reads,
    close: () => stopFeed(),
  };
}

/** The socket server as this assembly uses it: emits to one room of this instance's sockets. */
export function socketRooms(sockets: Pick<SocketServer, 'io' | 'onConnection'>): TournamentsAssemblyDeps['sockets'] {
  return {
    // Tournament events are not in the lobby protocol's types; the room emit is the same native publish.
    emitToRoom: (room, event, payload) => void (sockets.io.local.to(room) as unknown as { emit(e: string, p: unknown): boolean }).emit(event, payload),
    onConnection: (handler) => sockets.onConnection(TOURNAMENT_EVENTS, handler as never),
  };
}
