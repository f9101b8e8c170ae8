import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../identity/identity-fixtures';
import type { Player } from '../lobby/lobby-client';
import { startTeamsWorld, teamOf, type TeamsWorld } from './team-fixtures';

/**
 * Locked rosters and the approvals queue: while a team plays in a running tournament with a
 * locked roster, joins, leaves and kicks wait for an admin, who approves (the rules checked again
 * then) or denies. Entries are rows of the test's own table behind the competitions port.
 */
let world: TeamsWorld;
let competition = 9000;
beforeAll(async () => {
  world = await startTeamsWorld();
}, 60_000);
afterAll(async () => world?.close());

const asAdmin = (path: string, method = 'GET', body?: unknown) => call(world.server, path, { method, bearer: world.adminKey, body }).then(async (r) => ({ status: r.status, body: await r.json() }));
const approve = (id: number, body: unknown = {}) => asAdmin(`/api/admin/approvals/${id}/approve`, 'POST', body);
const deny = (id: number, reason = 'not now') => asAdmin(`/api/admin/approvals/${id}/deny`, 'POST', { reason });
const memberIds = async (teamId: number): Promise<number[]> =>
  (await world.admin.get(`/api/teams/${teamId}`)).body.members.map((m: { user: { id: number } }) => m.user.id);

async function lockedTeam(size: number, entry: { min?: number; max?: number | null } = {}): Promise<{ id: number; leader: Player; members: Player[] }> {
  const leader = await world.player();
  const members: Player[] = [];
  for (let i = 1; i < size; i++) members.push(await world.player());
  const team = await teamOf(leader, members);
  await world.enter(team.id, ++competition, { locked: true, ...entry });
  return { id: team.id, leader, members };
}

describe('a locked roster', () => {
  it('turns an accepted invite into a pending approval that changes nothing', async () => {
    const team = await lockedTeam(2);
    const joiner = await world.player();
    const invite = await team.leader.post(`/api/teams/${team.id}/invites`, { user_id: joiner.id });
    const accepted = await joiner.post(`/api/teams/invites/${invite.body.id}/accept`);
    expect(accepted).toEqual({ status: 202, body: { approval_id: expect.any(Number) } });
    expect(await memberIds(team.id)).not.toContain(joiner.id);
    const again = await joiner.post(`/api/teams/invites/${invite.body.id}/accept`);
    expect(again.body.approval_id).toBe(accepted.body.approval_id);
    const mine = await joiner.get('/api/approvals/mine');
    expect(mine.body).toMatchObject({ total: 1, page: 1, limit: 20 });
    expect(mine.body.approvals[0]).toMatchObject({
      id: accepted.body.approval_id, kind: 'team_transfer', status: 'pending', requested_by: joiner.id,
      subject: { action: 'join', team_id: team.id, user_id: joiner.id }, decided_by: null, decided_at: null, reason: null,
    });
  });

  it('applies an approved join, closes the invite and writes the admin audit row', async () => {
    const team = await lockedTeam(2);
    const joiner = await world.player();
    const invite = await team.leader.post(`/api/teams/${team.id}/invites`, { user_id: joiner.id });
    const { approval_id } = (await joiner.post(`/api/teams/invites/${invite.body.id}/accept`)).body;
    const approved = await approve(approval_id, { reason: 'within the window' });
    expect(approved).toMatchObject({ status: 200, body: { id: approval_id, status: 'approved', decided_by: world.admin.id, reason: 'within the window' } });
    expect(await memberIds(team.id)).toContain(joiner.id);
    expect((await joiner.get('/api/teams/invites/mine')).body).toEqual([]);
    const audit = await asAdmin(`/api/admin/audit?target_type=approval&target_id=${approval_id}`);
    expect(audit.body.entries).toEqual([expect.objectContaining({ action: 'approvals.approve', reason: 'within the window' })]);
    expect((await approve(approval_id)).status).toBe(409);
  });

  it('keeps a player leaving until an admin approves', async () => {
    const team = await lockedTeam(3);
    const leaver = team.members[0];
    const asked = await leaver.post(`/api/teams/${team.id}/leave`);
    expect(asked.status).toBe(202);
    expect(await memberIds(team.id)).toContain(leaver.id);
    expect((await approve(asked.body.approval_id)).status).toBe(200);
    expect(await memberIds(team.id)).not.toContain(leaver.id);
  });

  it('leaves a denied kick undone and records the reason', async () => {
    const team = await lockedTeam(3);
    const target = team.members[1];
    const asked = await team.leader.post(`/api/teams/${team.id}/kick`, { user_id: target.id });
    expect(asked.status).toBe(202);
    const denied = await deny(asked.body.approval_id, 'no kicks during playoffs');
    expect(denied).toMatchObject({ status: 200, body: { status: 'denied', reason: 'no kicks during playoffs' } });
    expect(await memberIds(team.id)).toContain(target.id);
    expect((await deny(asked.body.approval_id)).status).toBe(409);
    const audit = await asAdmin(`/api/admin/audit?target_type=approval&target_id=${asked.body.approval_id}`);
    expect(audit.body.entries.map((e: { action: string }) => e.action)).toEqual(['approvals.deny']);
  });

  it('does not let a pending leave block another transfer of the team', async () => {
    const team = await lockedTeam(3);
    const leave = await team.members[0].post(`/api/teams/${team.id}/leave`);
    const kick = await team.leader.post(`/api/teams/${team.id}/kick`, { user_id: team.members[1].id });
    expect([leave.status, kick.status]).toEqual([202, 202]);
    expect(kick.body.approval_id).not.toBe(leave.body.approval_id);
    expect((await approve(kick.body.approval_id)).status).toBe(200);
    expect((await approve(leave.body.approval_id)).status).toBe(200);
    expect(await memberIds(team.id)).toEqual([team.leader.id]);
  });

  it('answers 409 and stays pending when approving would drop the roster below the minimum', async () => {
    const team = await lockedTeam(3, { min: 2 });
    const first = await team.members[0].post(`/api/teams/${team.id}/leave`);
    const second = await team.members[1].post(`/api/teams/${team.id}/leave`);
    expect((await approve(first.body.approval_id)).status).toBe(200);
    const refused = await approve(second.body.approval_id);
    expect(refused).toEqual({ status: 409, body: { error: 'the roster would fall below the minimum of a tournament it plays in' } });
    const still = await asAdmin(`/api/admin/approvals?status=pending&kind=team_transfer&limit=100`);
    expect(still.body.approvals.map((a: { id: number }) => a.id)).toContain(second.body.approval_id);
    expect(await memberIds(team.id)).toContain(team.members[1].id);
  });

  it('answers 409 on approving a join of a player already on another team of the same tournament', async () => {
    const team = await lockedTeam(2);
    const joiner = await world.player();
    const invite = await team.leader.post(`/api/teams/${team.id}/invites`, { user_id: joiner.id });
    const { approval_id } = (await joiner.post(`/api/teams/invites/${invite.body.id}/accept`)).body;
    const rival = await teamOf(joiner);
    const [{ competition_id }] = await world.sql<{ competition_id: number }>('select competition_id from test_team_entries where team_id = ?', [team.id]);
    await world.enter(rival.id, competition_id, { locked: false });
    expect((await approve(approval_id)).status).toBe(409);
    expect(await memberIds(team.id)).not.toContain(joiner.id);
  });

  it('refuses a direct join of a player on another team entered in the same tournament', async () => {
    const leader = await world.player();
    const joiner = await world.player();
    const team = await teamOf(leader);
    const rival = await teamOf(joiner);
    await world.enter(team.id, ++competition, { locked: false });
    await world.enter(rival.id, competition, { locked: false });
    const invite = await leader.post(`/api/teams/${team.id}/invites`, { user_id: joiner.id });
    expect(await joiner.post(`/api/teams/invites/${invite.body.id}/accept`)).toEqual({ status: 409, body: { error: 'the player is on another team entered in the same tournament' } });
  });
});

describe('the approvals routes', () => {
  it('answer 401 without credentials and 403 to a non-admin', async () => {
    const p = await world.player();
    expect((await call(world.server, '/api/admin/approvals')).status).toBe(401);
    expect((await p.get('/api/admin/approvals')).status).toBe(403);
    expect((await p.post('/api/admin/approvals/1/approve', {})).status).toBe(403);
    expect((await call(world.server, '/api/approvals/mine')).status).toBe(401);
  });

  it('answer 404 for an unknown approval and 400 for a deny without a reason', async () => {
    expect((await approve(99_999_999)).status).toBe(404);
    expect((await asAdmin('/api/admin/approvals/1/deny', 'POST', {})).status).toBe(400);
    expect((await asAdmin('/api/admin/approvals?limit=0')).status).toBe(400);
    expect((await asAdmin('/api/admin/approvals?kind=unknown')).status).toBe(400);
  });

  it('filter by status and kind', async () => {
    const team = await lockedTeam(2);
    const asked = await team.members[0].post(`/api/teams/${team.id}/leave`);
    await deny(asked.body.approval_id);
    const denied = await asAdmin('/api/admin/approvals?status=denied&kind=team_transfer&limit=100');
    expect(denied.body.approvals.every((a: { status: string }) => a.status === 'denied')).toBe(true);
    expect(denied.body.approvals.map((a: { id: number }) => a.id)).toContain(asked.body.approval_id);
    expect((await asAdmin('/api/admin/approvals?kind=forum_post')).body).toEqual({ approvals: [], total: 0, page: 1, limit: 20 });
  });
});
