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
  const { tournament, bracket } = await reads.snapshot(id);
  const update: TournamentUpdate = { id, version: tournament.version, tournament, bracket };
  await live.publish(TOURNAMENT_FEED_CHANNEL, JSON.stringify(update));
}

export type RoomEmit = (room: string, event: 'tournament:update', payload: TournamentUpdate) => void;

/** This instance's delivery of the feed to its own watchers, in version order per tournament. */
export function startTournamentFeed(live: Pick<LiveStore, 'subscribe'>, emit: RoomEmit): Promise<Unsubscribe> {
  const sent = new Map<number, number>();
  return live.subscribe(TOURNAMENT_FEED_CHANNEL, (message) => {
    const update = JSON.parse(message) as TournamentUpdate;
    if ((sent.get(update.id) ?? 0) >= update.version) return;
    sent.set(update.id, update.version);
    emit(tournamentRoom(update.id), 'tournament:update', update);
  });
}
