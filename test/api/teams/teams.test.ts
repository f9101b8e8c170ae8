import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Player } from '../lobby/lobby-client';
import { startTeamsWorld, teamOf, type TeamsWorld } from './team-fixtures';

let world: TeamsWorld;
beforeAll(async () => {
  world = await startTeamsWorld();
}, 60_000);
afterAll(async () => world?.close());

describe('a team from founding to disbanding', () => {
  it('is founded by its leader, who is its first member', async () => {
    const leader = await world.player();
    const created = await leader.post('/api/teams', { name: 'Founders', tag: 'FND', description: 'we play' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Founders', tag: 'FND', description: 'we play', leader_id: leader.id, version: 1, disbanded_at: null });
    expect(created.body.members).toEqual([expect.objectContaining({ role: 'leader', user: expect.objectContaining({ id: leader.id }) })]);
    expect((await leader.get(`/api/teams/${created.body.id}`)).body).toEqual(created.body);
  });
});
