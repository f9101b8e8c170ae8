import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tournamentCompetitions } from '../../../src/tournaments/tournament-competitions';
import { startAdminWorld, type AdminWorld } from '../admin/admin-fixtures';
import { makeTeam, tournamentBody } from './tournament-fixtures';

let world: AdminWorld;
beforeAll(async () => {
  world = await startAdminWorld();
}, 60_000);
afterAll(() => world?.server.close());

const entriesOf = (teamId: number) => tournamentCompetitions.currentEntriesOf([teamId], world.server.database.db.em());

describe("the teams area's competitions port, filled from the tournament tables", () => {
  it('names an entered team as entered but not locked before the start, and locked once it runs', async () => {
    const created = (await world.asKey('/api/admin/tournaments', { method: 'POST', body: tournamentBody() })).body;
    const a = await makeTeam(world.server.database.db, await world.player());
    const b = await makeTeam(world.server.database.db, await world.player());
    for (const team of [a, b]) expect((await team.leader.post(`/api/tournaments/${created.id}/entries`, { team_id: team.id })).status).toBe(201);
    expect(await entriesOf(a.id)).toEqual([{ teamId: a.id, competitionId: created.id, rosterLocked: false, minRoster: 2, maxRoster: null }]);
    await world.asKey(`/api/admin/tournaments/${created.id}/start`, { method: 'POST' });
    expect((await entriesOf(a.id))[0]).toMatchObject({ rosterLocked: true });
  });

  it('forgets a team once its tournament is cancelled', async () => {
    const created = (await world.asKey('/api/admin/tournaments', { method: 'POST', body: tournamentBody({ roster_locked: false }) })).body;
    const a = await makeTeam(world.server.database.db, await world.player());
    await a.leader.post(`/api/tournaments/${created.id}/entries`, { team_id: a.id });
    expect(await entriesOf(a.id)).toHaveLength(1);
    await world.asKey(`/api/admin/tournaments/${created.id}/cancel`, { method: 'POST' });
    expect(await entriesOf(a.id)).toEqual([]);
  });
});
