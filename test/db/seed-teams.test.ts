import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/composition/demo-seed';
import { TeamRepository } from '../../src/db/team-repository';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const NOW = new Date('2026-07-01T18:00:00.000Z');

describe('the demo teams', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await seedDemo(t.db, NOW);
  });
  afterAll(() => t?.drop());

  it('are three live teams a newcomer finds in the list, each with one leader', async () => {
    const repo = new TeamRepository(t.db);
    const { teams, total } = await repo.search(undefined, 1, 20);
    expect(total).toBe(3);
    expect(teams.map((team) => team.name)).toEqual(['Kestrel Company', 'Nightjar', 'Saltmarsh Rovers']);
    for (const summary of teams) {
      const team = (await repo.get(summary.id))!;
      expect(team.members.filter((m) => m.role === 'leader').map((m) => m.user.id)).toEqual([team.leaderId]);
      expect(team.members.some((m) => m.role === 'captain')).toBe(true);
    }
  });

  it('carry a history with a player who left and one who was kicked', async () => {
    const [{ left, kicked }] = await t.db.em().execute<{ left: number; kicked: number }[]>(
      `select count(*) filter (where left_reason = 'left')::int as left, count(*) filter (where left_reason = 'kicked')::int as kicked from team_memberships`,
    );
    expect({ left, kicked }).toEqual({ left: 1, kicked: 1 });
  });
});
