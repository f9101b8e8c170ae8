import { afterAll, beforeAll, expect, it } from 'vitest';
import { loginAs } from '../../support/login';
import type { SpawnedServer } from '../../support/spawn-server';
import { describeOnTwoInstances, startTwoInstances, type TwoInstances } from '../../support/two-instances';
import { call, issueKey } from '../identity/identity-fixtures';
import { nextPlatformId, Player } from '../lobby/lobby-client';
import { teamOf } from './team-fixtures';
import { closeAllClients, connect, nextEvent, request } from '../../realtime/support/socket-client';

/*
 * Two server processes sharing one Postgres and one Redis: every team change locks the team's row
 * and every decision the approval's, so racing requests through both instances leave one winner.
 */
describeOnTwoInstances('teams and approvals on two server processes', () => {
  const adminPlatformId = '76561198000099101';
  let instances: TwoInstances;
  let servers: SpawnedServer[];
  let adminKey: string;

  beforeAll(async () => {
    instances = await startTwoInstances({ ADMIN_PLATFORM_IDS: adminPlatformId });
    servers = instances.servers;
    const admin = await loginAs(servers[0], instances.provider, adminPlatformId);
    adminKey = (await issueKey(servers[0], admin.cookie, 'admin')).raw;
  }, 180_000);

  afterAll(async () => {
    closeAllClients();
    await instances?.close();
  });

  const sql = <T,>(query: string, params: unknown[] = []) => instances.database.db.em().execute<T[]>(query, params);

  async function newPlayer(): Promise<Player> {
    const { cookie, user } = await loginAs(servers[0], instances.provider, nextPlatformId());
    return new Player(servers[0].url, cookie, user);
  }

  it('lets exactly one of two captains kicking the same member through both instances succeed', async () => {
    const [leader, a, b, target] = [await newPlayer(), await newPlayer(), await newPlayer(), await newPlayer()];
    const team = await teamOf(leader, [a, b, target]);
    for (const captain of [a, b]) expect((await leader.post(`/api/teams/${team.id}/roles`, { user_id: captain.id, role: 'captain' })).status).toBe(200);
    const answers = await Promise.all([a.on(servers[0].url), b.on(servers[1].url)].map((c) => c.post(`/api/teams/${team.id}/kick`, { user_id: target.id })));
    expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
    const rows = await sql<{ left_reason: string | null }>('select left_reason from team_memberships where team_id = ? and user_id = ?', [team.id, target.id]);
    expect(rows).toEqual([{ left_reason: 'kicked' }]);
  });

  it('never leaves an open membership on a team disbanded while an invite is accepted', async () => {
    for (let round = 0; round < 5; round++) {
      const [leader, invitee] = [await newPlayer(), await newPlayer()];
      const team = await teamOf(leader);
      const invite = await leader.post(`/api/teams/${team.id}/invites`, { user_id: invitee.id });
      const [accepted, disbanded] = await Promise.all([
        invitee.on(servers[round % 2].url).post(`/api/teams/invites/${invite.body.id}/accept`),
        leader.on(servers[(round + 1) % 2].url).send('DELETE', `/api/teams/${team.id}`),
      ]);
      expect(disbanded.status).toBe(204);
      expect([200, 409]).toContain(accepted.status);
      const [{ open }] = await sql<{ open: number }>('select count(*)::int as open from team_memberships where team_id = ? and left_at is null', [team.id]);
      expect(open).toBe(0);
      const [{ pending }] = await sql<{ pending: number }>(`select count(*)::int as pending from team_invites where team_id = ? and status = 'pending'`, [team.id]);
      expect(pending).toBe(0);
    }
  });

  it('applies one of two approvals of one request and answers the other 409', async () => {
    const [leader, leaver] = [await newPlayer(), await newPlayer()];
    const team = await teamOf(leader, [leaver]);
    // The approval a locked roster would have queued, written directly: these processes have no competitions wired.
    const [{ id }] = await sql<{ id: number }>(
      `insert into approvals (kind, subject, subject_key, requested_by_id) values ('team_transfer', ?::jsonb, ?, ?) returning id`,
      [JSON.stringify({ action: 'leave', team_id: team.id, user_id: leaver.id, by_user_id: leaver.id, invite_id: null }), `leave:${team.id}:${leaver.id}`, leaver.id],
    );
    const answers = await Promise.all(servers.map((s) => call(s, `/api/admin/approvals/${id}/approve`, { method: 'POST', bearer: adminKey, body: {} })));
    expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
    const [{ audits }] = await sql<{ audits: number }>(`select count(*)::int as audits from admin_audit where target_type = 'approval' and target_id = ?`, [String(id)]);
    expect(audits).toBe(1);
    const rows = await sql<{ left_reason: string | null }>('select left_reason from team_memberships where team_id = ? and user_id = ?', [team.id, leaver.id]);
    expect(rows).toEqual([{ left_reason: 'left' }]);
  });

  it('lets one of two teams founded at once with the same name in different case win', async () => {
    const [a, b] = [await newPlayer(), await newPlayer()];
    const name = `Race ${Date.now().toString(36)}`;
    const answers = await Promise.all([
      a.on(servers[0].url).post('/api/teams', { name, tag: 'RACEA' }),
      b.on(servers[1].url).post('/api/teams', { name: name.toUpperCase(), tag: 'RACEB' }),
    ]);
    expect(answers.map((x) => x.status).sort()).toEqual([201, 409]);
  });

  it('pushes a change made through one instance to a subscriber on the other', async () => {
    const [leader, member] = [await newPlayer(), await newPlayer()];
    const team = await teamOf(leader, [member]);
    const socket = await connect(servers[0].url, { cookie: leader.cookie });
    const { team: snapshot } = await request<{ team: { version: number } }>(socket, 'team:subscribe', { id: team.id });
    const update = nextEvent(socket, 'team:update');
    expect((await leader.on(servers[1].url).post(`/api/teams/${team.id}/kick`, { user_id: member.id })).status).toBe(200);
    expect(await update).toMatchObject({ id: team.id, version: snapshot.version + 1, team: { members: [expect.objectContaining({ role: 'leader' })] } });
  });
});
