import { LobbyRecordRepository, type LobbyNoticesOf } from '../db/lobby-record-repository';
import { MatchRepository } from '../db/match-repository';
import type { EmSource } from '../db/orm';
import type { Repositories } from './repositories';
import type { EarningRates } from '../domain/points/match-earnings';
import { DomainError } from '../domain/domain-error';
import type { LiveStore } from '../live/live-store';
import { BanList } from '../engine/ban-list';
import { startDeadlineWorker } from '../engine/deadline-worker';
import type { EngineLogger } from '../engine/engine-ports';
import { LOBBY_DEADLINES, UNRECORDED_MATCHES } from '../engine/live-keys';
import { startLobbyFeed, type LobbyBroadcast, type LobbyFeed } from '../engine/lobby-broadcast';
import { LiveEpoch } from '../engine/live-epoch';
import { LobbyEngine } from '../engine/lobby-engine';
import { PartyEngine } from '../engine/party-engine';
import { startPublicCacheInvalidation } from '../engine/public-cache-invalidation';
import { unrecordedLobbiesIn } from '../engine/unrecorded-lobbies';
import type { ReservationPins } from '../engine/lobby-engine';

export interface LobbyServicesInput {
  db: EmSource;
  live: LiveStore;
  repos: Pick<Repositories, 'users' | 'bans' | 'liveEpochs'>;
  clock: () => number;
  logger: EngineLogger & { info(details: object, message: string): void };
  /** This instance's watchers: fed from the live store's lobby feed, whichever instance changed the lobby. */
  broadcast: LobbyBroadcast;
  /** This instance's public-read cache; its topics are dropped in every instance on a change. */
  publicCache: { invalidate(...topics: string[]): void; invalidateAll(): void };
  /** Maps a lobby's map pool may use. */
  maps?: { names(): Promise<readonly string[]> };
  /** Reservations a lobby can be pinned to (the servers area). */
  reservations?: ReservationPins;
  /** Points a reported match pays (configuration). */
  earning?: EarningRates;
  /** How often the deadline worker polls (default 250 ms). */
  pollMs?: number;
  /** How long a claimed deadline is this instance's before another may run it (default DEFAULT_LEASE_MS). */
  leaseMs?: number;
  /** How long a durable lobby change may stay pending before another command settles it (default DEFAULT_DURABLE_LEASE_MS). */
  durableLeaseMs?: number;
  /** The notification events a lobby record stands for, written with it (the notifications area). */
  lobbyNotices?: LobbyNoticesOf;
}

export interface LobbyServices {
  lobbies: LobbyEngine;
  parties: PartyEngine;
  /** Drops a public-cache topic here and in every other instance. */
  invalidate(topic: string): void;
  /** A ban was given or lifted: every instance's next ban check reads the list again. Await before answering. */
  bansChanged(): Promise<void>;
  /** More listeners of this instance's lobby feed (the game servers' setup): the one subscription and assembly. */
  feed: Pick<LobbyFeed, 'listen'>;
  /** Stops the worker and the cache listener; call before the stores close. */
  close(): Promise<void>;
}

/**
 * The lobby and party engines with what keeps them going: the cross-instance cache invalidation,
 * the start-up recovery pass and the deadline worker (ready checks, ready flags, matches to write).
 */
export async function assembleLobbies(input: LobbyServicesInput): Promise<LobbyServices> {
  const { db, live, clock, logger } = input;
  const invalidation = await startPublicCacheInvalidation(live, input.publicCache, (error) =>
    logger.error({ err: error }, 'publishing a cache invalidation failed'),
  );
  // A delta this instance cannot place (it started after the lobby's last whole update) is made good by a read.
  const feed = await startLobbyFeed(live, input.broadcast, {
    read: (code) => lobbies.detail(code),
    readList: () => lobbies.summaries(),
    onError: (error, code) => logger.warn({ err: error, lobby: code }, 'lobby feed: an update could not be placed, or its lobby (or the open list: no lobby code) read again; its watchers here wait for its next change'),
  });
  const { bans: banRows, liveEpochs: epochs } = input.repos;
  // Chat, joining and creating check bans against this instance's current list (see BanList).
  const bans = new BanList({ live, loadCurrent: (now) => banRows.current(now), clock });
  const epoch = new LiveEpoch({
    live,
    nextEpoch: () => epochs.next(),
    rebuild: async (number) => {
      const rebuilt = await lobbies.recover();
      invalidation.invalidate('lobbies');
      // The in-process store starts empty with every process: that is its normal start, not a loss.
      if (live.kind === 'memory') logger.info({ epoch: number, ...rebuilt }, 'in-process live store started: open lobbies loaded from the database');
      else logger.warn({ epoch: number, ...rebuilt }, 'the live store had lost its data: open lobbies rebuilt from Postgres');
    },
    onError: (error) => logger.error({ err: error }, 'checking the live epoch failed'),
  });
  const lobbies = new LobbyEngine({
    live,
    epoch: () => epoch.current(),
    rebuilt: () => epoch.whole(),
    records: new LobbyRecordRepository(db, input.lobbyNotices),
    matches: new MatchRepository(db, input.earning),
    bans,
    unrecorded: unrecordedLobbiesIn(db),
    clock,
    logger,
    invalidate: (topic) => invalidation.invalidate(topic),
    maps: input.maps,
    reservations: input.reservations,
    durableLeaseMs: input.durableLeaseMs,
  });
  const parties = new PartyEngine({ live, users: input.repos.users, bans, clock });
  try {
    await epoch.start();
    const recovered = await lobbies.recover();
    if (recovered.restored + recovered.recorded > 0) logger.info(recovered, 'lobbies recovered at start-up');
  } catch (error) {
    epoch.stop();
    await invalidation.stop();
    await feed.stop();
    throw error;
  }
  const worker = startDeadlineWorker({
    live,
    clock,
    intervalMs: input.pollMs,
    leaseMs: input.leaseMs,
    queues: [
      { queue: LOBBY_DEADLINES, run: (code) => lobbies.tick(code) },
      {
        queue: UNRECORDED_MATCHES,
        run: async (code) => {
          // A match the data itself refuses would fail the same way on every retry: log it once.
          await lobbies.recordMatch(code).catch((error) => {
            if (!(error instanceof DomainError)) throw error;
            logger.error({ err: error, code }, 'the match of this lobby cannot be written');
          });
        },
      },
    ],
    onError: (error, queue, member) => logger.error({ err: error, queue, member }, 'a deadline failed; retrying'),
  });
  return {
    lobbies,
    parties,
    feed: { listen: (listener) => feed.listen(listener) },
    invalidate: (topic) => invalidation.invalidate(topic),
    bansChanged: () => bans.changed(),
    async close() {
      epoch.stop();
      await worker.stop();
      await lobbies.idle();
      await invalidation.stop();
      await feed.stop();
    },
  };
}
