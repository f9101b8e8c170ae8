import { BanRepository } from '../db/ban-repository';
import { LobbyRecordRepository } from '../db/lobby-record-repository';
import { MatchRepository } from '../db/match-repository';
import type { EmSource } from '../db/orm';
import type { UsersRepository } from '../db/users-repository';
import { DomainError } from '../domain/domain-error';
import type { LiveStore } from '../live/live-store';
import { startDeadlineWorker } from './deadline-worker';
import type { EngineLogger } from './engine-ports';
import { LOBBY_DEADLINES, UNRECORDED_MATCHES } from './live-keys';
import type { LobbyBroadcast } from './lobby-broadcast';
import { LobbyEngine } from './lobby-engine';
import { PartyEngine } from './party-engine';
import { startPublicCacheInvalidation } from './public-cache-invalidation';
import { unrecordedLobbiesIn } from './unrecorded-lobbies';

export interface LobbyServicesInput {
  db: EmSource;
  live: LiveStore;
  users: UsersRepository;
  clock: () => number;
  logger: EngineLogger & { info(details: object, message: string): void };
  broadcast: LobbyBroadcast;
  /** This instance's public-read cache; its topics are dropped in every instance on a change. */
  publicCache: { invalidate(...topics: string[]): void };
  /** Maps a lobby's map pool may use. */
  maps?: { names(): Promise<readonly string[]> };
  /** How often the deadline worker polls (default 250 ms). */
  pollMs?: number;
}

export interface LobbyServices {
  lobbies: LobbyEngine;
  parties: PartyEngine;
  /** Drops a public-cache topic here and in every other instance. */
  invalidate(topic: string): void;
  /** Stops the worker and the cache listener; call before the stores close. */
  close(): Promise<void>;
}

/**
 * The lobby and party engines with what keeps them going: the cross-instance cache invalidation,
 * the start-up recovery pass and the deadline worker (ready checks, ready flags, matches to write).
 */
export async function startLobbyServices(input: LobbyServicesInput): Promise<LobbyServices> {
  const { db, live, clock, logger } = input;
  const invalidation = await startPublicCacheInvalidation(live, (topic) => input.publicCache.invalidate(topic), (error) =>
    logger.error({ err: error }, 'publishing a cache invalidation failed'),
  );
  const bans = new BanRepository(db);
  const lobbies = new LobbyEngine({
    live,
    records: new LobbyRecordRepository(db),
    matches: new MatchRepository(db),
    bans,
    unrecorded: unrecordedLobbiesIn(db),
    broadcast: input.broadcast,
    clock,
    logger,
    invalidate: (topic) => invalidation.invalidate(topic),
    maps: input.maps,
  });
  const parties = new PartyEngine({ live, users: input.users, bans, clock });
  try {
    const recovered = await lobbies.recover();
    if (recovered.restored + recovered.recorded > 0) logger.info(recovered, 'lobbies recovered at start-up');
  } catch (error) {
    await invalidation.stop();
    throw error;
  }
  const worker = startDeadlineWorker({
    live,
    clock,
    intervalMs: input.pollMs,
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
    invalidate: (topic) => invalidation.invalidate(topic),
    async close() {
      await worker.stop();
      await lobbies.idle();
      await invalidation.stop();
    },
  };
}
