import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminWorld, type AdminWorld } from '../admin/admin-fixtures';
import type { Player } from '../lobby/lobby-client';
import { makeTeam, playOut as playOutWith, tournamentBody, type TestTeam } from './tournament-fixtures';

let world: AdminWorld;
beforeAll(async () => {
  world = await startAdminWorld();
}, 60_000);
afterAll(() => world?.server.close());

const db = () => world.server.database.db;

async function create(overrides: Record<string, unknown> = {}): Promise<any> {
  const answer = await world.asKey('/api/admin/tournaments', { method: 'POST', body: tournamentBody(overrides) });
  expect(answer.status).toBe(201);
  return answer.body;
}

async function teams(count: number, elo: (i: number) => number = () => 1000): Promise<TestTeam[]> {
  const made: TestTeam[] = [];
  for (let i = 0; i < count; i += 1) made.push(await makeTeam(db(), await world.player(), { elo: elo(i) }));
  return made;
}

async function enter(id: number, team: TestTeam, status = 201) {
  const answer = await team.leader.post(`/api/tournaments/${id}/entries`, { team_id: team.id });
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer;
}

async function start(id: number): Promise<any> {
  const answer = await world.asKey(`/api/admin/tournaments/${id}/start`, { method: 'POST' });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

async function bracket(id: number): Promise<any[]> {
  const answer = await world.admin.get(`/api/tournaments/${id}/bracket`);
  return answer.body.stages.flatMap((s: any) => s.rounds.flatMap((r: any) => r.matches));
}

function leaderOf(all: TestTeam[], teamId: number): Player {
  return all.find((t) => t.id === teamId)!.leader;
}

/** Reports and confirms every ready match, the home team winning, until none is ready. */
const playOut = (id: number, all: TestTeam[]) => playOutWith(world.admin, id, all);

describe('tournament life cycle', () => {
  it('creates a tournament taking signups with no entry fee', async () => {
    const t = await create();
    expect(t).toMatchObject({ status: 'signups', kind: 'single_elimination', entries: [], entry_fee: null, roster_locked: true, version: 1 });
    expect((await world.admin.get(`/api/tournaments/${t.id}`)).body.id).toBe(t.id);
  });

  it('refuses to create a tournament for a non-admin', async () => {
    const someone = await world.player();
    expect((await someone.post('/api/admin/tournaments', tournamentBody())).status).toBe(403);
  });

  it('edits a tournament before it starts and refuses after', async () => {
    const t = await create();
    const edited = await world.asKey(`/api/admin/tournaments/${t.id}`, { method: 'PATCH', body: { name: 'Renamed Cup' } });
    expect(edited.body).toMatchObject({ name: 'Renamed Cup', version: 2 });
    const [a, b] = await teams(2);
    await enter(t.id, a!);
    await enter(t.id, b!);
    await start(t.id);
    expect((await world.asKey(`/api/admin/tournaments/${t.id}`, { method: 'PATCH', body: { name: 'Too Late' } })).status).toBe(409);
  });

  it('cancels a tournament once and refuses a second time', async () => {
    const t = await create();
    expect((await world.asKey(`/api/admin/tournaments/${t.id}/cancel`, { method: 'POST' })).body.status).toBe('cancelled');
    expect((await world.asKey(`/api/admin/tournaments/${t.id}/cancel`, { method: 'POST' })).status).toBe(409);
  });

  it('lists tournaments by status', async () => {
    const t = await create();
    const page = await world.admin.get('/api/tournaments?status=signups&limit=100');
    expect(page.body.tournaments.map((x: any) => x.id)).toContain(t.id);
    const running = await world.admin.get('/api/tournaments?status=running&limit=100');
    expect(running.body.tournaments.map((x: any) => x.id)).not.toContain(t.id);
  });
});

describe('entries', () => {
  it('refuses a second entry of the same team', async () => {
    const t = await create();
    const [a] = await teams(1);
    await enter(t.id, a!);
    await enter(t.id, a!, 409);
  });

  it('refuses an entry once the tournament is full', async () => {
    const t = await create({ max_teams: 2 });
    const [a, b, c] = await teams(3);
    await enter(t.id, a!);
    await enter(t.id, b!);
    await enter(t.id, c!, 409);
  });

  it('refuses an entry by a plain member', async () => {
    const t = await create();
    const [a] = await teams(1);
    const stranger = await world.player();
    expect((await stranger.post(`/api/tournaments/${t.id}/entries`, { team_id: a!.id })).status).toBe(403);
  });

  it('refuses a team with fewer members than the format needs', async () => {
    const t = await create({ format: '6v6' });
    const [a] = await teams(1);
    await enter(t.id, a!, 409);
  });

  it('refuses a team sharing a player with an entered team, naming the player', async () => {
    const t = await create();
    const [a, b] = await teams(2);
    await enter(t.id, a!);
    const shared = await world.player();
    await db().em().execute(`insert into team_memberships (team_id, user_id, role) values (?, ?, 'member'), (?, ?, 'member')`, [a!.id, shared.id, b!.id, shared.id], 'run');
    const refused = await enter(t.id, b!, 409);
    expect(refused.body.error).toContain(shared.user.username);
  });

  it('refuses an entry after the start', async () => {
    const t = await create();
    const [a, b, c] = await teams(3);
    await enter(t.id, a!);
    await enter(t.id, b!);
    await start(t.id);
    await enter(t.id, c!, 409);
  });

  it('withdraws a team before the start', async () => {
    const t = await create();
    const [a] = await teams(1);
    await enter(t.id, a!);
    expect((await a!.leader.send('DELETE', `/api/tournaments/${t.id}/entries/${a!.id}`)).status).toBe(204);
    expect((await world.admin.get(`/api/tournaments/${t.id}`)).body.entries).toEqual([]);
  });

  it('checks a team in inside the window and refuses outside it', async () => {
    const open = await create({ check_in_minutes: 120 });
    const closed = await create({ check_in_minutes: 10 });
    const [a] = await teams(1);
    await enter(open.id, a!);
    await enter(closed.id, a!);
    expect((await a!.leader.post(`/api/tournaments/${open.id}/check-in`, { team_id: a!.id })).body).toEqual({ ok: true });
    expect((await a!.leader.post(`/api/tournaments/${closed.id}/check-in`, { team_id: a!.id })).status).toBe(409);
  });
});

describe('banned players', () => {
  async function ban(player: Player) {
    const answer = await world.asKey('/api/admin/bans', { method: 'POST', body: { user_id: player.id, reason: 'cheating' } });
    expect(answer.status).toBe(201);
  }

  it('refuses the entry of a banned leader and writes nothing', async () => {
    const t = await create();
    const [a] = await teams(1);
    await ban(a!.leader);
    await enter(t.id, a!, 403);
    expect((await world.admin.get(`/api/tournaments/${t.id}`)).body.entries).toEqual([]);
  });

  it('refuses the check-in of a team by a leader banned after the entry', async () => {
    const t = await create({ check_in_minutes: 120 });
    const [a] = await teams(1);
    await enter(t.id, a!);
    await ban(a!.leader);
    expect((await a!.leader.post(`/api/tournaments/${t.id}/check-in`, { team_id: a!.id })).status).toBe(403);
  });

  it('refuses a result reported by a banned leader, leaving the match ready', async () => {
    const t = await create();
    const all = await teams(2);
    for (const team of all) await enter(t.id, team);
    await start(t.id);
    const [match] = await bracket(t.id);
    const home = leaderOf(all, match.home.team_id);
    await ban(home);
    const path = `/api/tournaments/${t.id}/matches/${match.id}`;
    expect((await home.post(`${path}/report`, { home_score: 2, away_score: 0 })).status).toBe(403);
    expect((await bracket(t.id)).find((m) => m.id === match.id).status).toBe(match.status);
  });
});

describe('start and play', () => {
  it('drops teams that did not check in and seeds the rest by average ELO', async () => {
    const t = await create({ check_in_minutes: 120 });
    const [low, high, absent] = await teams(3, (i) => [900, 1500, 2000][i]!);
    for (const team of [low!, high!, absent!]) await enter(t.id, team);
    for (const team of [low!, high!]) await team.leader.post(`/api/tournaments/${t.id}/check-in`, { team_id: team.id });
    const started = await start(t.id);
    const byTeam = new Map(started.entries.map((e: any) => [e.team.id, e]));
    expect(byTeam.get(absent!.id)).toMatchObject({ status: 'dropped' });
    expect(byTeam.get(high!.id)).toMatchObject({ status: 'active', seed: 1 });
    expect(byTeam.get(low!.id)).toMatchObject({ status: 'active', seed: 2 });
    expect(started.status).toBe('running');
  });

  it('refuses to start with fewer than two teams', async () => {
    const t = await create();
    const [a] = await teams(1);
    await enter(t.id, a!);
    expect((await world.asKey(`/api/admin/tournaments/${t.id}/start`, { method: 'POST' })).status).toBe(409);
  });

  it('refuses a report from a player not in the match, a draw and a confirmation by the reporter', async () => {
    const t = await create();
    const all = await teams(2);
    for (const team of all) await enter(t.id, team);
    await start(t.id);
    const [match] = await bracket(t.id);
    const stranger = await world.player();
    const path = `/api/tournaments/${t.id}/matches/${match.id}`;
    expect((await stranger.post(`${path}/report`, { home_score: 2, away_score: 0 })).status).toBe(403);
    const home = leaderOf(all, match.home.team_id);
    expect((await home.post(`${path}/report`, { home_score: 1, away_score: 1 })).status).toBe(400);
    expect((await home.post(`${path}/report`, { home_score: 2, away_score: 0 })).body.status).toBe('reported');
    expect((await home.post(`${path}/confirm`)).status).toBe(403);
  });

  it('puts a disputed match to the admin, whose result completes the tournament', async () => {
    const t = await create();
    const all = await teams(2);
    for (const team of all) await enter(t.id, team);
    await start(t.id);
    const [match] = await bracket(t.id);
    const path = `/api/tournaments/${t.id}/matches/${match.id}`;
    await leaderOf(all, match.home.team_id).post(`${path}/report`, { home_score: 2, away_score: 0 });
    const disputed = await leaderOf(all, match.away.team_id).post(`${path}/dispute`, { reason: 'we won' });
    expect(disputed.body.status).toBe('disputed');
    const set = await world.asKey(`/api/admin/tournaments/${t.id}/matches/${match.id}/result`, { method: 'POST', body: { home_score: 0, away_score: 2 } });
    expect(set.body).toMatchObject({ status: 'confirmed', winner_team_id: match.away.team_id });
    const after = (await world.admin.get(`/api/tournaments/${t.id}`)).body;
    expect(after.status).toBe('completed');
    const standings = (await world.admin.get(`/api/tournaments/${t.id}/standings`)).body;
    expect(standings[0]).toMatchObject({ rank: 1, team_id: match.away.team_id, wins: 1 });
  });

  it('refuses a correction under a played match unless reset_dependents, which clears it', async () => {
    const t = await create();
    const all = await teams(4);
    for (const team of all) await enter(t.id, team);
    await start(t.id);
    await playOut(t.id, all);
    const [first] = await bracket(t.id);
    const result = (body: object) => world.asKey(`/api/admin/tournaments/${t.id}/matches/${first.id}/result`, { method: 'POST', body });
    expect((await result({ home_score: 0, away_score: 2 })).status).toBe(409);
    expect((await result({ home_score: 0, away_score: 2, reset_dependents: true })).status).toBe(200);
    const final = (await bracket(t.id)).at(-1);
    expect(final).toMatchObject({ status: 'ready', home: { team_id: first.away.team_id, score: null } });
    expect((await world.admin.get(`/api/tournaments/${t.id}`)).body.status).toBe('running');
  });

  it('plays a 64-team single elimination to completion through REST', async () => {
    const t = await create({ max_teams: 64 });
    const all = await teams(64, (i) => 1000 + i);
    for (const team of all) await enter(t.id, team);
    await start(t.id);
    expect(await playOut(t.id, all)).toBe(63);
    const done = (await world.admin.get(`/api/tournaments/${t.id}`)).body;
    expect(done.status).toBe('completed');
    const ranks = done.entries.map((e: any) => e.final_rank);
    expect(ranks.filter((r: number) => r === 1)).toHaveLength(1);
    expect(ranks.every((r: number | null) => r !== null)).toBe(true);
    // The top seed (highest average ELO) wins when the home team always wins.
    expect(done.entries.find((e: any) => e.final_rank === 1).seed).toBe(1);
  }, 120_000);
});
