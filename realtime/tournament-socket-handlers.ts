import * as v from 'valibot';
import type { BracketView, TournamentView } from '../schema/tournaments';
import { tournamentRoom } from '../src/tournaments/tournament-feed';
import type { TournamentReads } from '../src/tournaments/tournament-reads';
import type { RoomFeed } from './room-feed';

const TournamentSubscribePayload = v.object({
  id: v.pipe(v.number('id must be a number'), v.integer('id must be an integer'), v.minValue(1, 'id must be positive')),
});

/**
 * `tournament:subscribe {id}` acks `{tournament, bracket}` and joins the tournament's room, where
 * `tournament:update {id, version, tournament, bracket}` arrives after every change (in version
 * order: src/tournaments/tournament-feed.ts). `tournament:unsubscribe {id}` leaves it.
 */
export function tournamentFeed(reads: Pick<TournamentReads, 'snapshot'>): RoomFeed<{ tournament: TournamentView; bracket: BracketView }> {
  return {
    subscribe: 'tournament:subscribe',
    unsubscribe: 'tournament:unsubscribe',
    payload: TournamentSubscribePayload,
    room: tournamentRoom,
    read: (id) => reads.snapshot(id),
    version: (snapshot) => snapshot.tournament.version,
  };
}
