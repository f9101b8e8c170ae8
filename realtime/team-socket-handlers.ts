import type { Server, Socket } from 'socket.io';
import { TeamSubscribePayload, type AckError, type ClientToServerEvents, type InterServerEvents, type ServerToClientEvents, type SocketData } from '../schema/realtime';
import { parseInput } from '../schema/parse-input';
import type { TeamView } from '../schema/teams';

type TeamSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type Ack = (answer: unknown) => void;

export const teamRoom = (id: number): string => `team:${id}`;

export interface TeamSocketDeps {
  /** The team as GET /api/teams/{id} answers it; null when there is none. */
  team(id: number): Promise<TeamView | null>;
  onError(error: unknown): void;
}

/**
 * `team:subscribe {id}` joins the team's room and acks `{team}`; `team:update` follows in version
 * order (src/teams/team-feed.ts). Joining before reading means an update racing the read arrives
 * after the snapshot (newer) or before it (older, which the client drops by version).
 */
export function handleTeamEvents(socket: TeamSocket, deps: TeamSocketDeps): void {
  const on = (event: 'team:subscribe' | 'team:unsubscribe', handle: (payload: unknown) => Promise<unknown>) => {
    socket.on(event, (...args: unknown[]) => {
      const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as Ack) : () => undefined;
      handle(args[0]).then(ack, (error: unknown) => {
        deps.onError(error);
        ack(failure(500, 'internal error'));
      });
    });
  };

  on('team:subscribe', async (payload) => {
    const parsed = parseInput(TeamSubscribePayload, payload, 'payload');
    if (!parsed.ok) return failure(400, parsed.message);
    const room = teamRoom(parsed.value.id);
    await socket.join(room);
    const team = await deps.team(parsed.value.id);
    if (!team) {
      await socket.leave(room);
      return failure(404, 'no such team');
    }
    return { team };
  });

  on('team:unsubscribe', async (payload) => {
    const parsed = parseInput(TeamSubscribePayload, payload, 'payload');
    if (!parsed.ok) return failure(400, parsed.message);
    await socket.leave(teamRoom(parsed.value.id));
    return { ok: true };
  });
}

/** This instance's subscribers of one team: one room broadcast (a single native uWS publish). */
export function teamUpdateEmitter(io: Pick<Server<never, ServerToClientEvents>, 'local'>) {
  return (id: number, version: number, team: TeamView): void => void io.local.to(teamRoom(id)).emit('team:update', { id, version, team });
}

function failure(status: number, error: string): AckError {
  return { error, status };
}
