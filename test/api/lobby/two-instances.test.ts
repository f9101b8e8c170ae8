import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FakeSteamOpenId } from '../../fakes/fake-steam-openid';
import { loginAs } from '../../support/login';
import type { SpawnedServer } from '../../support/spawn-server';
import { describeOnTwoInstances, startTwoInstances, type TwoInstances } from '../../support/two-instances';
import { draftAll, lobbyAt, nextPlatformId, Player, seatedIds } from './lobby-client';

/*
 * Two server processes sharing one Redis and one Postgres, as behind a load balancer: the
 * one-open-lobby rule and the lobby's seats must hold across them. Needs REDIS_URL and
 * DATABASE_URL (the embedded PGlite serves one process well, two processes' pools poorly);
 * without them the test is skipped, unless CI is set, where it fails instead.
 */
describeOnTwoInstances('two server processes sharing Redis and Postgres', () => {
  let instances: TwoInstances;
  let provider: FakeSteamOpenId;
  let servers: SpawnedServer[] = [];
  let players: Player[] = [];

  beforeAll(async () => {
    instances = await startTwoInstances();
    ({ provider, servers } = instances);
    for (let i = 0; i < 24; i++) {
      const { cookie, user } = await loginAs(servers[0], provider, nextPlatformId());
      players.push(new Player(servers[i % 2].url, cookie, user));
    }
  }, 180_000);

  afterAll(() => instances?.close());

  it('admits exactly 12 of 20 users racing for 12 places through both instances: nobody twice, 8 refused with 409', async () => {
    const [host, ...racers] = players.slice(0, 21);
    const created = await host.post('/api/lobbies', {});
    expect(created.status).toBe(200);
    const code: string = created.body.code;
    // The host leaves (and stays host), so all 12 places are up for grabs.
    await host.command(code, 'leave');
    const answers = await Promise.all(racers.map((p) => p.post(`/api/lobbies/${code}/join`)));
    const admitted = racers.filter((_, i) => answers[i].status === 200).map((p) => p.id);
    const refused = answers.filter((a) => a.status !== 200);
    expect(admitted, servers.map((s) => s.output()).join('\n')).toHaveLength(12);
    expect(refused).toHaveLength(8);
    for (const answer of refused) expect(answer).toEqual({ status: 409, body: { error: 'lobby is full' } });

    const gathered = await lobbyAt(servers[1].url, code);
    const members = gathered.pool.map((u) => u.id);
    expect(members).toHaveLength(12);
    expect(new Set(members).size).toBe(12);
    expect([...members].sort()).toEqual([...admitted].sort());

    // The twelve draft to a full board with an empty pool.
    await host.command(code, 'start-draft');
    const lobby = await draftAll(servers[0].url, code, players);
    expect(lobby.phase).toBe('ready_check');
    expect(seatedIds(lobby).sort()).toEqual([...admitted].sort());
    expect(lobby.pool).toEqual([]);
  });

  it('keeps parties whole and the lobby within 12 when party-joins race single joins through both instances', async () => {
    const crowd: Player[] = [];
    for (let i = 0; i < 19; i++) {
      const { cookie, user } = await loginAs(servers[0], provider, nextPlatformId());
      crowd.push(new Player(servers[i % 2].url, cookie, user));
    }
    const [host, ...rest] = crowd;
    // Three parties of three (leader first), six single players: 15 people for 11 free places.
    const parties = [rest.slice(0, 3), rest.slice(3, 6), rest.slice(6, 9)];
    const singles = rest.slice(9, 15);
    for (const [leader, ...members] of parties) {
      expect((await leader.post('/api/parties/create', {})).status).toBe(201);
      for (const member of members) {
        expect((await leader.post('/api/parties/invite', { to_platform_id: member.user.platform_id })).status).toBe(200);
        const me = await member.get('/api/parties/me');
        const inviteId = me.body.received_invites[0].id;
        expect((await member.post(`/api/parties/invite/${inviteId}/accept`)).status).toBe(200);
      }
    }
    const code: string = (await host.post('/api/lobbies', {})).body.code;

    const racers = [...parties.map((p) => ({ who: p[0], path: 'party-join', people: p })), ...singles.map((p) => ({ who: p, path: 'join', people: [p] }))];
    const answers = await Promise.all(racers.map((r) => r.who.post(`/api/lobbies/${code}/${r.path}`)));
    const lobby = await lobbyAt(servers[0].url, code);
    const members = lobby.pool.map((u) => u.id);
    expect(new Set(members).size).toBe(members.length);
    expect(members.length).toBeLessThanOrEqual(12);
    racers.forEach((racer, i) => {
      const inside = racer.people.filter((p) => members.includes(p.id)).length;
      if (answers[i].status === 200) expect(inside, `${racer.path} by ${racer.who.id}`).toBe(racer.people.length);
      else {
        expect(answers[i].status).toBe(409);
        expect(inside, `${racer.path} by ${racer.who.id} was refused, yet someone joined`).toBe(0);
      }
    });
    const admitted = racers.filter((_, i) => answers[i].status === 200).flatMap((r) => r.people.map((p) => p.id));
    expect([...members].sort()).toEqual([host.id, ...admitted].sort());
    // With 11 places and parties of 3, at least 9 of them are taken whatever the order.
    expect(members.length).toBeGreaterThanOrEqual(10);
  });

  it('lets one user into only one of two lobbies joined at once through different instances', async () => {
    const [a, b, racer] = players.slice(21, 24);
    const one = (await a.post('/api/lobbies', {})).body.code;
    const two = (await b.post('/api/lobbies', {})).body.code;
    const answers = await Promise.all([
      racer.on(servers[0].url).post(`/api/lobbies/${one}/join`),
      racer.on(servers[1].url).post(`/api/lobbies/${two}/join`),
    ]);
    expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
    const inLobbies = [await lobbyAt(servers[0].url, one), await lobbyAt(servers[1].url, two)].filter((l) =>
      l.pool.some((u) => u.id === racer.id),
    );
    expect(inLobbies).toHaveLength(1);
  });

  it("shows each player's new rating on /api/users/me through either instance as soon as the match is reported", async () => {
    const twelve: Player[] = [];
    for (let i = 0; i < 12; i++) {
      const { cookie, user } = await loginAs(servers[0], provider, nextPlatformId());
      twelve.push(new Player(servers[i % 2].url, cookie, user));
    }
    // Both instances have read (and may keep) every player's row before the match changes it.
    for (const player of twelve) for (const server of servers) expect((await player.on(server.url).get('/api/users/me')).body.elo).toBe(player.user.elo);

    const [host, ...rest] = twelve;
    const code: string = (await host.post('/api/lobbies', { format: '6v6' })).body.code;
    for (const player of rest) await player.command(code, 'join');
    await host.command(code, 'start-draft');
    let lobby = await draftAll(servers[0].url, code, twelve);
    for (const player of twelve) await player.command(code, 'ready');
    lobby = await lobbyAt(servers[1].url, code);
    expect(lobby.phase).toBe('live');
    const redCaptain = twelve.find((p) => p.id === lobby.captains.red)!;
    await redCaptain.on(servers[1].url).command(code, 'report', { score_red: 2, score_blu: 0 }, 201);

    const redIds = lobby.teams.red.map((slot) => slot.user!.id);
    for (const player of twelve) {
      for (const server of servers) {
        const elo: number = (await player.on(server.url).get('/api/users/me')).body.elo;
        if (redIds.includes(player.id)) expect(elo, `user ${player.id} on ${server.url}`).toBeGreaterThan(player.user.elo);
        else expect(elo, `user ${player.id} on ${server.url}`).toBeLessThan(player.user.elo);
      }
    }
  });
});
