import type { Logger } from 'pino';
import * as v from 'valibot';
import { parseInput } from '../schema/parse-input';
import { DomainError } from '../src/domain/domain-error';
import { tournamentRoom } from '../src/tournaments/tournament-feed';
import type { TournamentReads } from '../src/tournaments/tournament-reads';

const TournamentSubscribePayload = v.object({
  id: v.pipe(v.number('id must be a number'), v.integer('id must be an integer'), v.minValue(1, 'id must be positive')),
});

/** The socket shape these handlers use; tournament events are not in the lobby protocol's types. */
export interface TournamentSocket {
  id: string;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  join(room: string): unknown;
  leave(room: string): unknown;
}

type Ack = (answer: unknown) => void;

export const TOURNAMENT_EVENTS = ['tournament:subscribe', 'tournament:unsubscribe'] as const;

/**
 * `tournament:subscribe {id}` acks `{tournament, bracket}` and joins the tournament's room, where
 * `tournament:update {id, version, tournament, bracket}` arrives after every change (in version
 * order: src/tournaments/tournament-feed.ts). `tournament:unsubscribe {id}` leaves it.
 */
export function handleTournamentEvents(socket: TournamentSocket, reads: TournamentReads, logger: Pick<Logger, 'error'>): void {
  const on = (event: string, handle: (payload: unknown) => Promise<unknown>) => {
    socket.on(event, (...args: unknown[]) => {
      const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as Ack) : () => undefined;
      handle(args[0]).then(ack, (error: unknown) => {
        if (error instanceof DomainError && error.kind === 'not_found') return ack({ error: error.message, status: 404 });
        logger.error({ err: error, event, socketId: socket.id }, 'socket event failed');
        ack({ error: 'internal error', status: 500 });
      });
    });
  };

  on('tournament:subscribe', async (payload) => {
    const parsed = parseInput(TournamentSubscribePayload, payload, 'payload');
    if (!parsed.ok) return { error: parsed.message, status: 400 };
    const room = tournamentRoom(parsed.value.id);
    // Join before reading: an update racing the read is then newer than the snapshot or one the client drops.
    await socket.join(room);
    try {
      return await reads.snapshot(parsed.value.id);
    } catch (error) {
      await socket.leave(room);
      throw error;
    }
  });

  on('tournament:unsubscribe', async (payload) => {
    const parsed = parseInput(TournamentSubscribePayload, payload, 'payload');
    if (!parsed.ok) return { error: parsed.message, status: 400 };
    await socket.leave(tournamentRoom(parsed.value.id));
    return { ok: true };
  });
}
