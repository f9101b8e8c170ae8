import { expect, it } from 'vitest';
import { LobbyFanout, lobbyRoom, updatesRoom } from '../../../realtime/lobby-fanout';
import { sampleLobby } from '../../realtime/support/fake-lobby-services';

/** Rooms in memory; records what each socket was sent directly and what each room got. */
function fakeRooms() {
  const members = new Map<string, Set<string>>();
  const sent: Array<{ socketId: string; event: string; json: string }> = [];
  const published: Array<{ room: string; event: string; json: string }> = [];
  return {
    sent,
    published,
    size: (room: string) => members.get(room)?.size ?? 0,
    join: (socketId: string, room: string) => void (members.get(room) ?? members.set(room, new Set()).get(room)!).add(socketId),
    leave: (socketId: string, room: string) => void members.get(room)?.delete(socketId),
    broadcastJson: (room: string, event: string, json: string) => void published.push({ room, event, json }),
    sendJson: (socketId: string, event: string, json: string) => void sent.push({ socketId, event, json }),
  };
}

it('marks a re-announced version as such, so a client can tell it from a version delivered twice', () => {
  const rooms = fakeRooms();
  const fanout = new LobbyFanout(rooms);
  rooms.join('s1', lobbyRoom('ABC'));
  fanout.watch('s1', sampleLobby('ABC', 1), false);
  const update = JSON.stringify({ code: 'ABC', version: 2, lobby: sampleLobby('ABC', 2) });
  fanout.update('ABC', 2, update);

  fanout.reannounce('s1', [lobbyRoom('ABC'), updatesRoom('ABC')]);

  expect(rooms.published.map((p) => JSON.parse(p.json).reannounced)).toEqual([undefined]);
  expect(rooms.sent.map((s) => ({ ...s, json: JSON.parse(s.json) }))).toEqual([
    { socketId: 's1', event: 'lobby:update', json: { ...JSON.parse(update), reannounced: true } },
  ]);
});
