import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../identity/identity-fixtures';
import { startTeamsWorld, teamOf, type TeamsWorld } from './team-fixtures';

/**
 * The teams area on what `npm start` uses with nothing configured: embedded PGlite (one backend,
 * where a query outside an open transaction would wait for it forever) and the in-process store.
 */
let world: TeamsWorld;
const saved = { DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: process.env.REDIS_URL };
beforeAll(async () => {
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  world = await startTeamsWorld();
}, 120_000);
afterAll(async () => {
  await world?.close();
  Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, value]) => value !== undefined)));
});

describe('teams on the embedded defaults', () => {
  it('runs a roster from founding through a locked leave approved by an admin to disbanding', async () => {
    const [leader, member] = [await world.player(), await world.player()];
    const team = await teamOf(leader, [member]);
    await world.enter(team.id, 1, { locked: true });
    const asked = await member.post(`/api/teams/${team.id}/leave`);
    expect(asked.status).toBe(202);
    const approved = await call(world.server, `/api/admin/approvals/${asked.body.approval_id}/approve`, { method: 'POST', bearer: world.adminKey, body: {} });
    expect(approved.status).toBe(200);
    expect((await leader.get(`/api/teams/${team.id}`)).body.members).toHaveLength(1);
    expect((await leader.send('DELETE', `/api/teams/${team.id}`)).status).toBe(409);
    await world.leaveCompetitions(team.id);
    expect((await leader.send('DELETE', `/api/teams/${team.id}`)).status).toBe(204);
    const history = (await leader.get(`/api/teams/${team.id}/history`)).body;
    expect(history.map((h: { left_reason: string }) => h.left_reason)).toEqual(['disbanded', 'left']);
  });
});
