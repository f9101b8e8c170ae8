import type { EntityManager } from '../db/orm';
import { teamSize, type LobbyFormat } from '../domain/lobby/formats';
import type { CompetitionEntry } from '../domain/teams';
import type { TeamCompetitions } from '../teams/team-competitions';

/**
 * The teams area's port, filled from the tournament tables: live entries (entered or playing) of
 * tournaments that have not ended. A running tournament with `roster_locked` locks the roster; the
 * format's team size is the least a locked roster may keep.
 */
export const tournamentCompetitions: TeamCompetitions = {
  async currentEntriesOf(teamIds: readonly number[], em: EntityManager): Promise<CompetitionEntry[]> {
    if (teamIds.length === 0) return [];
    const rows = await em.execute<{ team_id: number; tournament_id: number; locked: boolean; format: string }[]>(
      `select e.team_id, e.tournament_id, (t.status = 'running' and t.roster_locked) as locked, t.format
       from tournament_entries e join tournaments t on t.id = e.tournament_id
       where e.team_id in (${teamIds.map(() => '?').join(', ')}) and e.status in ('entered', 'active') and t.status in ('signups', 'running')`,
      [...teamIds],
    );
    return rows.map((row) => ({
      teamId: row.team_id,
      competitionId: row.tournament_id,
      rosterLocked: row.locked,
      minRoster: teamSize(row.format as LobbyFormat),
      maxRoster: null,
    }));
  },
};
