import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../identity/identity-fixtures';
import type { Player } from '../lobby/lobby-client';
import { startTeamsWorld, teamOf, type TeamsWorld } from './team-fixtures';

/** The teams routes over real HTTP, on real Postgres and Redis when DATABASE_URL and REDIS_URL are set. */
let world: TeamsWorld;
beforeAll(async () => {
  world = await startTeamsWorld();
}, 60_000);
afterAll(async () => world?.close());

const anonymous = (path: string, method = 'GET', body?: unknown) => call(world.server, path, { method, body });
const roleOf = async (teamId: number, userId: number) =>
  (await anonymous(`/api/teams/${teamId}`).then((r) => r.json())).members.find((m: { user: { id: number } }) => m.user.id === userId)?.role;

describe('founding a team', () => {
  it('makes the caller its leader and first member', async () => {
    const leader = await world.player();
    const created = await leader.post('/api/teams', { name: 'Founders', tag: 'FND', description: 'we play' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Founders', tag: 'FND', description: 'we play', leader_id: leader.id, version: 1, disbanded_at: null });
    expect(created.body.members).toEqual([expect.objectContaining({ role: 'leader', user: expect.objectContaining({ id: leader.id }) })]);
    expect((await leader.get(`/api/teams/${created.body.id}`)).body).toEqual(created.body);
  });

  it('refuses a name or a tag another live team has, ignoring case', async () => {
    const [a, b] = [await world.player(), await world.player()];
    expect((await a.post('/api/teams', { name: 'Case Study', tag: 'CASE' })).status).toBe(201);
    const sameName = await b.post('/api/teams', { name: 'CASE study', tag: 'OTHER' });
    expect(sameName).toEqual({ status: 409, body: { error: 'a team with that name exists' } });
    expect(await b.post('/api/teams', { name: 'Another name', tag: 'case' })).toEqual({ status: 409, body: { error: 'a team with that tag exists' } });
  });

  it('answers 400 naming the field without echoing what was sent', async () => {
    const p = await world.player();
    const bad = await p.post('/api/teams', { name: 'Fine name', tag: 'no-way!' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/tag/);
    expect(bad.body.error).not.toContain('no-way!');
    expect((await p.post('/api/teams', { name: 'ab', tag: 'AB' })).status).toBe(400);
    expect((await p.post('/api/teams', { name: 'Long enough', tag: 'AB', description: 'x'.repeat(1001) })).status).toBe(400);
  });

  it('answers 401 to an anonymous caller', async () => {
    expect((await anonymous('/api/teams', 'POST', { name: 'Nobody', tag: 'NOB' })).status).toBe(401);
  });
});

describe('banned users', () => {
  it('get 403 on every state-changing team route', async () => {
    const [leader, banned] = [await world.player(), await world.player()];
    const team = await teamOf(leader, [banned]);
    const other = await teamOf(leader);
    const invite = await leader.post(`/api/teams/${other.id}/invites`, { user_id: banned.id });
    const ban = await call(world.server, '/api/admin/bans', { method: 'POST', bearer: world.adminKey, body: { user_id: banned.id, reason: 'cheating' } });
    expect(ban.status).toBe(201);
    const attempts = [
      await banned.post('/api/teams', { name: 'Banned team', tag: 'BAN' }),
      await banned.send('PATCH', `/api/teams/${team.id}`, { description: 'x' }),
      await banned.send('DELETE', `/api/teams/${team.id}`),
      await banned.post(`/api/teams/${team.id}/invites`, { user_id: leader.id }),
      await banned.post(`/api/teams/${team.id}/leave`),
      await banned.post(`/api/teams/${team.id}/kick`, { user_id: leader.id }),
      await banned.post(`/api/teams/${team.id}/roles`, { user_id: leader.id, role: 'member' }),
      await banned.post(`/api/teams/invites/${invite.body.id}/accept`),
      await banned.post(`/api/teams/invites/${invite.body.id}/decline`),
    ];
    expect(attempts.map((a) => a.status)).toEqual(attempts.map(() => 403));
    expect(await roleOf(team.id, banned.id)).toBe('member');
  });
});

describe('searching teams', () => {
  it('pages live teams whose name or tag matches, and refuses an out-of-range limit', async () => {
    const leader = await world.player();
    const marker = `Zq${Date.now().toString(36).slice(-4)}`;
    for (const n of [1, 2, 3]) expect((await leader.post('/api/teams', { name: `${marker} squad ${n}`, tag: `Z${n}${marker.slice(-3)}` })).status).toBe(201);
    const page = await anonymous(`/api/teams?q=${marker.toLowerCase()}&limit=2&page=2`).then((r) => r.json());
    expect(page).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(page.teams).toEqual([{ id: expect.any(Number), name: `${marker} squad 3`, tag: expect.any(String), leader_id: leader.id, member_count: 1 }]);
    expect((await anonymous('/api/teams?limit=101')).status).toBe(400);
    expect((await anonymous('/api/teams?page=0')).status).toBe(400);
  });

  it('treats % and _ in the query as plain characters', async () => {
    const page = await anonymous(`/api/teams?q=${encodeURIComponent('%_%')}`).then((r) => r.json());
    expect(page).toEqual({ teams: [], total: 0, page: 1, limit: 20 });
  });
});

describe('editing a team', () => {
  it('lets the leader change the description and bumps the version', async () => {
    const leader = await world.player();
    const team = await teamOf(leader);
    const edited = await leader.send('PATCH', `/api/teams/${team.id}`, { description: 'new text' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: team.name, description: 'new text', version: 2 });
  });

  it('refuses a member who does not lead (403) and a clashing name (409)', async () => {
    const [leader, member] = [await world.player(), await world.player()];
    const team = await teamOf(leader, [member]);
    const other = await teamOf(await world.player());
    expect((await member.send('PATCH', `/api/teams/${team.id}`, { description: 'mine now' })).status).toBe(403);
    expect((await leader.send('PATCH', `/api/teams/${team.id}`, { name: other.name.toUpperCase() })).status).toBe(409);
  });

  it('lets an admin edit any team', async () => {
    const team = await teamOf(await world.player());
    expect((await world.admin.send('PATCH', `/api/teams/${team.id}`, { description: 'moderated' })).body.description).toBe('moderated');
  });
});

describe('invites', () => {
  it('are listed to the invitee with the team, and accepting makes them a member', async () => {
    const [leader, invitee] = [await world.player(), await world.player()];
    const team = await teamOf(leader);
    const invite = await leader.post(`/api/teams/${team.id}/invites`, { user_id: invitee.id });
    expect(invite).toMatchObject({ status: 201, body: { team_id: team.id, user_id: invitee.id, from_user_id: leader.id } });
    const mine = await invitee.get('/api/teams/invites/mine');
    expect(mine.body).toEqual([expect.objectContaining({ id: invite.body.id, team: expect.objectContaining({ id: team.id, member_count: 1 }) })]);
    expect(await invitee.post(`/api/teams/invites/${invite.body.id}/accept`)).toEqual({ status: 200, body: { ok: true } });
    expect(await roleOf(team.id, invitee.id)).toBe('member');
    expect((await invitee.get('/api/teams/invites/mine')).body).toEqual([]);
  });

  it("answer 403 to someone else's accept and 409 to a second answer", async () => {
    const [leader, invitee, stranger] = [await world.player(), await world.player(), await world.player()];
    const team = await teamOf(leader);
    const invite = await leader.post(`/api/teams/${team.id}/invites`, { user_id: invitee.id });
    expect((await stranger.post(`/api/teams/invites/${invite.body.id}/accept`)).status).toBe(403);
    expect(await invitee.post(`/api/teams/invites/${invite.body.id}/decline`)).toEqual({ status: 200, body: { ok: true } });
    expect((await invitee.post(`/api/teams/invites/${invite.body.id}/accept`)).status).toBe(409);
    expect(await roleOf(team.id, invitee.id)).toBeUndefined();
  });

  it('refuse a member (409), a second pending invite (409), an unknown user (404) and a plain member inviting (403)', async () => {
    const [leader, member, invitee] = [await world.player(), await world.player(), await world.player()];
    const team = await teamOf(leader, [member]);
    expect((await leader.post(`/api/teams/${team.id}/invites`, { user_id: member.id })).status).toBe(409);
    expect((await leader.post(`/api/teams/${team.id}/invites`, { user_id: invitee.id })).status).toBe(201);
    expect((await leader.post(`/api/teams/${team.id}/invites`, { user_id: invitee.id })).status).toBe(409);
    expect((await leader.post(`/api/teams/${team.id}/invites`, { user_id: 99_999_999 })).status).toBe(404);
    expect((await member.post(`/api/teams/${team.id}/invites`, { user_id: (await world.player()).id })).status).toBe(403);
  });
});

describe('leaving, kicking and roles', () => {
  it('lets a member leave, and keeps the leader until the lead is handed over', async () => {
    const [leader, member] = [await world.player(), await world.player()];
    const team = await teamOf(leader, [member]);
    expect((await leader.post(`/api/teams/${team.id}/leave`)).status).toBe(409);
    expect(await member.post(`/api/teams/${team.id}/leave`)).toEqual({ status: 200, body: { ok: true } });
    expect(await roleOf(team.id, member.id)).toBeUndefined();
    expect((await member.post(`/api/teams/${team.id}/leave`)).status).toBe(404);
  });

  it('hands the lead over: the old leader becomes a captain', async () => {
    const [leader, member] = [await world.player(), await world.player()];
    const team = await teamOf(leader, [member]);
    const handed = await leader.post(`/api/teams/${team.id}/roles`, { user_id: member.id, role: 'leader' });
    expect(handed.status).toBe(200);
    expect(handed.body.leader_id).toBe(member.id);
    expect(handed.body.members.map((m: { user: { id: number }; role: string }) => [m.user.id, m.role])).toEqual([
      [member.id, 'leader'],
      [leader.id, 'captain'],
    ]);
    expect(await leader.post(`/api/teams/${team.id}/leave`)).toEqual({ status: 200, body: { ok: true } });
  });

  it('lets a captain kick members but not captains', async () => {
    const [leader, captain, other, member] = [await world.player(), await world.player(), await world.player(), await world.player()];
    const team = await teamOf(leader, [captain, other, member]);
    for (const p of [captain, other]) expect((await leader.post(`/api/teams/${team.id}/roles`, { user_id: p.id, role: 'captain' })).status).toBe(200);
    expect((await captain.post(`/api/teams/${team.id}/kick`, { user_id: other.id })).status).toBe(403);
    expect((await captain.post(`/api/teams/${team.id}/kick`, { user_id: leader.id })).status).toBe(403);
    expect(await captain.post(`/api/teams/${team.id}/kick`, { user_id: member.id })).toEqual({ status: 200, body: { ok: true } });
    expect((await leader.post(`/api/teams/${team.id}/kick`, { user_id: other.id })).status).toBe(200);
    expect((await member.post(`/api/teams/${team.id}/kick`, { user_id: captain.id })).status).toBe(403);
  });

  it('keeps every membership interval in the history, kicked and returned', async () => {
    const [leader, member] = [await world.player(), await world.player()];
    const team = await teamOf(leader, [member]);
    await leader.post(`/api/teams/${team.id}/kick`, { user_id: member.id });
    const invite = await leader.post(`/api/teams/${team.id}/invites`, { user_id: member.id });
    await member.post(`/api/teams/invites/${invite.body.id}/accept`);
    const history = await anonymous(`/api/teams/${team.id}/history`).then((r) => r.json());
    expect(history.map((h: { user_id: number; left_at: string | null; left_reason: string | null }) => [h.user_id, h.left_at === null, h.left_reason])).toEqual([
      [leader.id, true, null],
      [member.id, false, 'kicked'],
      [member.id, true, null],
    ]);
    expect(history[1]).toMatchObject({ username: member.user.username, joined_at: expect.any(String), left_at: expect.any(String) });
  });
});

describe('disbanding', () => {
  it('keeps the team readable, drops it from lists, closes every membership and frees the name', async () => {
    const [leader, member] = [await world.player(), await world.player()];
    const team = await teamOf(leader, [member]);
    const disbanded = await leader.send('DELETE', `/api/teams/${team.id}`);
    expect(disbanded.status).toBe(204);
    const after = await anonymous(`/api/teams/${team.id}`).then((r) => r.json());
    expect(after).toMatchObject({ id: team.id, members: [], disbanded_at: expect.any(String) });
    expect((await anonymous(`/api/teams?q=${encodeURIComponent(team.name)}`).then((r) => r.json())).total).toBe(0);
    const history = await anonymous(`/api/teams/${team.id}/history`).then((r) => r.json());
    expect(history.map((h: { left_reason: string }) => h.left_reason)).toEqual(['disbanded', 'disbanded']);
    expect((await member.post('/api/teams', { name: team.name, tag: team.tag })).status).toBe(201);
    expect((await leader.send('PATCH', `/api/teams/${team.id}`, { description: 'back?' })).status).toBe(409);
  });

  it('is refused while the team is entered in a tournament that has not ended', async () => {
    const leader = await world.player();
    const team = await teamOf(leader);
    await world.enter(team.id, 501, { locked: false });
    expect((await leader.send('DELETE', `/api/teams/${team.id}`)).status).toBe(409);
    await world.leaveCompetitions(team.id);
    expect((await leader.send('DELETE', `/api/teams/${team.id}`)).status).toBe(204);
  });

  it('is refused to a member who does not lead', async () => {
    const [leader, member]: Player[] = [await world.player(), await world.player()];
    const team = await teamOf(leader, [member]);
    expect((await member.send('DELETE', `/api/teams/${team.id}`)).status).toBe(403);
  });

  it('answers 404 for a team that never existed', async () => {
    expect((await anonymous('/api/teams/99999999')).status).toBe(404);
    expect((await anonymous('/api/teams/99999999/history')).status).toBe(404);
  });
});
