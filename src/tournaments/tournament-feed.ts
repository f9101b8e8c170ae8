import type { LiveStore, Unsubscribe } from '../live/live-store';
import type { TournamentReads } from './tournament-reads';

/** The one channel of every tournament update, across instances. */
export const TOURNAMENT_FEED_CHANNEL = 'tournament-feed';

export function tournamentRoom(id: number): string {
  return `tournament:${id}`;
}

export interface TournamentUpdate {
  id: number;
  version: number;
  tournament: unknown;
  bracket: unknown;
}

/**
 * After a committed change: the tournament as it now is goes out on the feed. The snapshot is read
 * after the commit, so it may already be a later version than the change that sent it; receivers
 * keep only versions newer than what they sent (see `startTournamentFeed`), so every watcher sees
 * versions strictly increasing and each update is a whole state (a skipped one loses nothing).
 */
export async function publishTournament(live: Pick<LiveStore, 'publish'>, reads: TournamentReads, id: number): Promise<void> {
  await live.publish(TOURNAMENT_FEED_CHANNEL, JSON.stringify(await tournamentUpdate(reads, id)));
}

/** The tournament as it now is, as the feed carries it. */
export async function tournamentUpdate(reads: Pick<TournamentReads, 'snapshot'>, id: number): Promise<TournamentUpdate> {
  const { tournament, bracket } = await reads.snapshot(id);
  return { id, version: tournament.version, tournament, bracket };
}

export type RoomEmit = (room: string, event: 'tournament:update', payload: TournamentUpdate) => void;

/** A tournament's update as it is now, for a feed that may have lost one. */
export interface TournamentRecheck {
  read(id: number): Promise<TournamentUpdate>;
  onError(error: unknown, id: number): void;
}

/**
 * This instance's delivery of the feed to its own watchers, in version order per tournament. When
 * the subscription was interrupted, every tournament sent here is read again and sent if it moved.
 */
export function startTournamentFeed(live: Pick<LiveStore, 'subscribe'>, emit: RoomEmit, recheck: TournamentRecheck): Promise<Unsubscribe> {
  const sent = new Map<number, number>();
  const take = (update: TournamentUpdate) => {
    if ((sent.get(update.id) ?? 0) >= update.version) return;
    sent.set(update.id, update.version);
    emit(tournamentRoom(update.id), 'tournament:update', update);
  };
  return live.subscribe(
    TOURNAMENT_FEED_CHANNEL,
    (message) => take(JSON.parse(message) as TournamentUpdate),
    () => {
      for (const id of [...sent.keys()]) recheck.read(id).then(take, (error: unknown) => recheck.onError(error, id));
    },
  );
}
