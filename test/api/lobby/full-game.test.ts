import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { draftAll, lobbyAt, nextPlatformId, Player, seatedIds } from './lobby-client';

/** Real time plus what the test has skipped ahead, shared with the server (ServerOptions.clock). */
const clock = { skipped: 0 };
const read = () => Date.now() + clock.skipped;

let server: TestServerWithLogin;
let players: Player[];

beforeAll(async () => {
  server = await startTestServerWithLogin({}, { clock: read });
  players = [];
  for (let i = 0; i < 19; i++) {
    const { cookie, user } = await server.login(nextPlatformId());
    players.push(new Player(server.url, cookie, user));
  }
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('a whole 6v6 over HTTP, from creation to the leaderboard', () => {
  it('plays the contract flow: create, 12 join (the creator counts), the 13th gets 409, captains, a full draft, ready, force-start, report, ELO', async () => {
    const [host, ...rest] = players.slice(0, 12);
    const thirteenth = players[12];
    const created = await host.post('/api/lobbies/', { format: '6v6', name: 'Friday pug' });
    expect(created.status).toBe(200);
    const code: string = created.body.code;
    expect(created.body.lobby).toMatchObject({ code, name: 'Friday pug', phase: 'gathering', host_id: host.id });
    expect(created.body.lobby.pool.map((u: { id: number }) => u.id)).toEqual([host.id]);
    expect((await fetch(`${server.url}/api/public/lobbies`).then((r) => r.json())).map((l: { code: string }) => l.code)).toContain(code);

    for (const player of rest) await player.command(code, 'join');
    expect((await rest[0].post(`/api/lobbies/${code}/join`)).status).toBe(409);
    const full = await thirteenth.post(`/api/lobbies/${code}/join`);
    expect(full).toEqual({ status: 409, body: { error: 'lobby is full' } });
    let lobby = await lobbyAt(server.url, code);
    expect(lobby.pool).toHaveLength(12);
    expect(lobby.pool.map((u) => u.id)).not.toContain(thirteenth.id);

    // Map votes: two for the second map, one for the first.
    const pool = created.body.lobby.map_pool as string[];
    await rest[0].command(code, 'vote-map', { map: pool[1] });
    await rest[1].command(code, 'vote-map', { map: pool[1] });
    await rest[2].command(code, 'vote-map', { map: pool[0] });
    expect((await rest[0].post(`/api/lobbies/${code}/vote-map`, { map: 'cp_nowhere' })).status).toBe(400);
    expect((await host.get(`/api/lobbies/${code}/votes`)).body.votes).toMatchObject({ [pool[0]]: 1, [pool[1]]: 2 });
    expect((await rest[2].get(`/api/lobbies/${code}/my-vote`)).body).toEqual({ map: pool[0] });
    expect((await host.get(`/api/lobbies/${code}/my-vote`)).body).toEqual({ map: null });

    // Chat.
    await host.command(code, 'chat', { message: 'glhf' });
    await rest[0].command(code, 'chat', { message: '  ready when you are  ' });
    expect((await rest[0].post(`/api/lobbies/${code}/chat`, { message: '   ' })).status).toBe(400);
    expect((await rest[0].post(`/api/lobbies/${code}/chat`, { message: 'x'.repeat(501) })).status).toBe(400);
    const chat = await fetch(`${server.url}/api/lobbies/${code}/chat`).then((r) => r.json());
    expect(chat.messages.map((m: { message: string; user: { id: number } }) => [m.user.id, m.message])).toEqual([
      [host.id, 'glhf'],
      [rest[0].id, 'ready when you are'],
    ]);

    // Captains, then the draft, with one unpick on the way.
    const [redCaptain, bluCaptain] = [rest[0], rest[1]];
    await host.command(code, 'set-captain', { user_id: redCaptain.id });
    await host.command(code, 'set-captain', { user_id: bluCaptain.id, team: 'blu' });
    expect((await redCaptain.post(`/api/lobbies/${code}/start-draft`)).status).toBe(403);
    await host.command(code, 'start-draft');
    lobby = await lobbyAt(server.url, code);
    expect(lobby).toMatchObject({ phase: 'drafting', turn: 'red', captains: { red: redCaptain.id, blu: bluCaptain.id } });
    const first = lobby.pool[0].id;
    await redCaptain.command(code, 'pick', { user_id: first });
    expect((await redCaptain.post(`/api/lobbies/${code}/pick`, { user_id: lobby.pool[2].id })).status).toBe(409);
    await redCaptain.command(code, 'unpick', { user_id: first });
    lobby = await lobbyAt(server.url, code);
    expect(lobby.turn).toBe('red');
    expect(lobby.pool.map((u) => u.id)).toContain(first);
    // Twelve players, twelve slots: the draft ends with a full board and an empty pool.
    lobby = await draftAll(server.url, code, players);
    expect(lobby.phase).toBe('ready_check');
    expect(seatedIds(lobby)).toHaveLength(12);
    expect(new Set(seatedIds(lobby)).size).toBe(12);
    expect(lobby.pool).toEqual([]);
    expect((await thirteenth.post(`/api/lobbies/${code}/join`)).status).toBe(409);

    // A class change within the limits, and one beyond them.
    const seated = players.filter((p) => seatedIds(lobby).includes(p.id));
    const scout = seated.find((p) => lobby.teams.red.some((s) => s.user?.id === p.id && s.class === 'scout'))!;
    expect((await scout.post(`/api/lobbies/${code}/set-class`, { class: 'medic' })).status).toBe(409);
    await scout.command(code, 'set-class', { class: 'pyro' });
    expect((await lobbyAt(server.url, code)).teams.red.find((s) => s.user?.id === scout.id)?.class).toBe('pyro');

    // Ready: a flag that decays (ready, 31 s pass, the flag is off and can no longer be kept), a few
    // players ready again, and the host force-starts without waiting for the rest.
    const [early, ...others] = seated;
    await early.command(code, 'ready');
    clock.skipped += 31_000;
    const slotOf = (l: typeof lobby, id: number) => [...l.teams.red, ...l.teams.blu].find((s) => s.user?.id === id)!;
    expect(slotOf(await lobbyAt(server.url, code), early.id).ready).toBe(false);
    expect((await early.post(`/api/lobbies/${code}/keep-ready`)).status).toBe(409);
    for (const player of [early, ...others.slice(0, 5)]) await player.command(code, 'ready');
    lobby = await lobbyAt(server.url, code);
    expect(lobby.phase).toBe('ready_check');
    expect((await redCaptain.post(`/api/lobbies/${code}/force-start`)).status).toBe(403);
    await host.command(code, 'force-start');
    lobby = await lobbyAt(server.url, code);
    expect(lobby.phase).toBe('live');

    // The report: 201 once, 409 after; the match and the ratings are public at once.
    const before = Object.fromEntries(seated.map((p) => [p.id, p.user.elo]));
    expect((await seated.find((p) => p.id !== redCaptain.id && p.id !== bluCaptain.id && p.id !== host.id)!.post(`/api/lobbies/${code}/report`, { score_red: 3, score_blu: 1 })).status).toBe(403);
    const report = await redCaptain.command(code, 'report', { score_red: 3, score_blu: 1 }, 201);
    expect(report).toEqual({ match_id: expect.any(Number) });
    expect((await bluCaptain.post(`/api/lobbies/${code}/report`, { score_red: 0, score_blu: 5 })).status).toBe(409);
    expect((await host.send('DELETE', `/api/lobbies/${code}`)).status).toBe(409);

    const match = await fetch(`${server.url}/api/public/match/${report.match_id}`).then((r) => r.json());
    expect(match).toMatchObject({ map: pool[1], score_red: 3, score_blu: 1 });
    const leaderboard: { user: { id: number }; elo: number }[] = await fetch(`${server.url}/api/public/leaderboard`).then((r) => r.json());
    const redIds = lobby.teams.red.map((s) => s.user!.id);
    for (const id of seatedIds(lobby)) {
      const row = leaderboard.find((r) => r.user.id === id)!;
      if (redIds.includes(id)) expect(row.elo).toBeGreaterThan(before[id]);
      else expect(row.elo).toBeLessThan(before[id]);
    }
    expect((await lobbyAt(server.url, code))).toMatchObject({ phase: 'ended', match_id: report.match_id });
    expect((await fetch(`${server.url}/api/public/lobbies`).then((r) => r.json())).map((l: { code: string }) => l.code)).not.toContain(code);
    // Everyone is free again: the thirteenth can now create a lobby of their own.
    const own = await thirteenth.post('/api/lobbies', {});
    expect(own.status).toBe(200);
    expect((await thirteenth.send('DELETE', `/api/lobbies/${own.body.code}`)).status).toBe(204);
  });

  it('plays a 9v9 with automatic captains, force-started by the host', async () => {
    const [host, ...rest] = players.slice(1, 19);
    const created = await host.post('/api/lobbies', { format: '9v9' });
    expect(created.status).toBe(200);
    const code: string = created.body.code;
    for (const player of rest) await player.command(code, 'join');
    await host.command(code, 'start-draft');
    let lobby = await draftAll(server.url, code, players);
    expect(lobby.phase).toBe('ready_check');
    expect(seatedIds(lobby)).toHaveLength(18);
    expect(new Set(seatedIds(lobby)).size).toBe(18);
    await host.command(code, 'force-start');
    lobby = await lobbyAt(server.url, code);
    expect(lobby.phase).toBe('live');
    const { match_id } = await host.command(code, 'report', { score_red: 0, score_blu: 2 }, 201);
    const detail = await fetch(`${server.url}/api/public/match/${match_id}`).then((r) => r.json());
    expect(detail).toMatchObject({ format: '9v9', score_red: 0, score_blu: 2 });
  });
});
