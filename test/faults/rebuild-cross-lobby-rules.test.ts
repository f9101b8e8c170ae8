import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LobbyDetail } from '../../schema/lobby';
import { nextPlatformId, Player } from '../api/lobby/lobby-client';
import { startOwnRedis, type OwnRedis } from '../support/own-redis';
import { until } from '../support/timing';
import { describeOnTwoInstances, startTwoInstances, type TwoInstances } from '../support/two-instances';

const MEMBERS = 8;

/** Everyone in a lobby: the pool and the seats. */
const membersOf = (lobby: LobbyDetail): number[] => [
  ...lobby.pool.map((member) => member.id),
  ...[...lobby.teams.red, ...lobby.teams.blu].flatMap((slot) => (slot.user ? [slot.user.id] : [])),
];

describeOnTwoInstances('lobby creation while the live store is rebuilt after its data was lost (FLUSHALL)', () => {
  let redis: OwnRedis;
  let two: TwoInstances;

  beforeAll(async () => {
    redis = await startOwnRedis();
    two = await startTwoInstances({ REDIS_URL: redis.url });
  }, 120_000);
  afterAll(async () => {
    await two?.close();
    await redis?.stop();
  });

  it('never leaves a player in two open lobbies, whichever instance each create reaches', async () => {
    const [a, b] = two.servers;
    const players: Player[] = [];
    for (let i = 0; i < MEMBERS; i++) {
      const { cookie, user } = await a.login(nextPlatformId());
      players.push(new Player((i % 2 ? b : a).url, cookie, user));
    }
    const [host, ...guests] = players;
    const code = (await host.post('/api/lobbies', {})).body.code as string;
    for (const guest of guests) await guest.command(code, 'join');
    const map = (await host.get(`/api/lobbies/${code}`)).body.map_pool[0] as string;
    // A command each just before the loss: every instance holds their sessions and rows for the next 500 ms.
    await Promise.all(players.map((player) => player.command(code, 'vote-map', { map })));

    await redis.command('FLUSHALL');
    const creates = await Promise.all(guests.map((guest) => guest.post('/api/lobbies', {})));

    const created = creates.flatMap((answer) => (answer.status === 200 ? [answer.body.code as string] : []));
    const lobbies = await until(
      'the old lobby and every created one can be read',
      async () => {
        const details = await Promise.all([code, ...created].map((c) => host.get(`/api/lobbies/${c}`)));
        return details.every((d) => d.status === 200) ? details.map((d) => d.body as LobbyDetail) : null;
      },
      10_000,
    );
    const open = lobbies.filter((lobby) => lobby.phase !== 'ended' && lobby.phase !== 'cancelled');
    for (const player of players) {
      const inLobbies = open.filter((lobby) => membersOf(lobby).includes(player.id)).map((lobby) => lobby.code);
      expect({ player: player.id, inLobbies: inLobbies.length }).toEqual({ player: player.id, inLobbies: 1 });
    }
    // Nobody got a lobby they cannot be in: each create was refused (in the old lobby) or failed cleanly.
    expect(creates.map((answer) => answer.status).filter((status) => status === 200)).toEqual([]);
  }, 60_000);
});
