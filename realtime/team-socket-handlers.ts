import { TeamSubscribePayload } from '../schema/realtime';
import type { TeamView } from '../schema/teams';
import { notFound } from '../src/domain/domain-error';
import type { RoomFeed } from './room-feed';
import type { SocketServer } from './socket-server';

export const teamRoom = (id: number): string => `team:${id}`;

/**
 * `team:subscribe {id}` acks `{team}` (as GET /api/teams/{id} answers it); `team:update` follows in
 * version order (src/teams/team-feed.ts).
 */
export function teamFeed(team: (id: number) => Promise<TeamView | null>): RoomFeed<{ team: TeamView }> {
  return {
    subscribe: 'team:subscribe',
    unsubscribe: 'team:unsubscribe',
    payload: TeamSubscribePayload,
    room: teamRoom,
    async read(id) {
      const view = await team(id);
      if (!view) throw notFound('no such team');
      return { team: view };
    },
    version: (snapshot) => snapshot.team.version,
  };
}

/** This instance's subscribers of one team, each after its snapshot (RoomFanout). */
export function teamUpdateEmitter(sockets: Pick<SocketServer, 'deliverToRoom'>) {
  return (id: number, version: number, team: TeamView): void => sockets.deliverToRoom(teamRoom(id), 'team:update', { id, version, team }, version);
}
