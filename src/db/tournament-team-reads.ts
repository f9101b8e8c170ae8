import type { EntityManager } from './orm';

export type TeamRole = 'leader' | 'captain' | 'member';

/**
 * What tournaments read of teams (the teams area's tables, migration 0009), always inside the
 * caller's transaction so an entry is checked against the roster it commits with.
 */
export class TournamentTeamReads {
  /** The caller's role in each of the given teams they are a current member of. */
  static async rolesIn(em: EntityManager, userId: number, teamIds: readonly number[]): Promise<Map<number, TeamRole>> {
    if (teamIds.length === 0) return new Map();
    const rows = await em.execute<{ team_id: number; role: TeamRole }[]>(
      `select team_id, role from team_memberships where user_id = ? and left_at is null and team_id in (${teamIds.map(() => '?').join(', ')})`,
      [userId, ...teamIds],
    );
    return new Map(rows.map((row) => [row.team_id, row.role]));
  }

  /** The team's current roster size, or null when there is no such team (or it was disbanded). */
  static async rosterSizeIn(em: EntityManager, teamId: number): Promise<number | null> {
    const [row] = await em.execute<{ n: number }[]>(
      `select (select count(*)::int from team_memberships m where m.team_id = t.id and m.left_at is null) as n
       from teams t where t.id = ? and t.disbanded_at is null`,
      [teamId],
    );
    return row ? row.n : null;
  }

  /** A player of `teamId` who is also on another team with a live entry in the tournament, or null. */
  static async sharedPlayerIn(em: EntityManager, tournamentId: number, teamId: number): Promise<string | null> {
    const [row] = await em.execute<{ username: string }[]>(
      `select u.username from team_memberships mine
       join team_memberships other on other.user_id = mine.user_id and other.left_at is null and other.team_id <> mine.team_id
       join tournament_entries e on e.team_id = other.team_id and e.tournament_id = ? and e.status in ('entered', 'active')
       join users u on u.id = mine.user_id
       where mine.team_id = ? and mine.left_at is null
       order by u.username limit 1`,
      [tournamentId, teamId],
    );
    return row ? row.username : null;
  }

  /** Average ELO of each team's current members (a team with no members counts 0). */
  static async averageEloIn(em: EntityManager, teamIds: readonly number[]): Promise<Map<number, number>> {
    if (teamIds.length === 0) return new Map();
    const rows = await em.execute<{ team_id: number; average: number | null }[]>(
      `select m.team_id, avg(u.elo)::float8 as average from team_memberships m join users u on u.id = m.user_id
       where m.left_at is null and m.team_id in (${teamIds.map(() => '?').join(', ')}) group by m.team_id`,
      [...teamIds],
    );
    return new Map(rows.map((row) => [row.team_id, row.average ?? 0]));
  }
}
