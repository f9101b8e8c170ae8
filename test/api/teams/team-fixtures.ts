import type { EntityManager } from '../../../src/db/orm';
import type { CompetitionEntry } from '../../../src/domain/teams';
import type { TeamCompetitions } from '../../../src/teams/team-competitions';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { issueKey } from '../identity/identity-fixtures';
import { nextPlatformId, Player } from '../lobby/lobby-client';

/**
 * The competitions port as the tournaments area will fill it, backed by a small table this test
 * creates itself (not a migration): one row per team entered in a competition that has not ended.
 */
export const tableBackedCompetitions: TeamCompetitions = {
  async currentEntriesOf(teamIds: readonly number[], em: EntityManager): Promise<CompetitionEntry[]> {
    if (teamIds.length === 0) return [];
    const rows = await em.execute<{ team_id: number; competition_id: number; roster_locked: boolean; min_roster: number; max_roster: number | null }[]>(
      `select team_id, competition_id, roster_locked, min_roster, max_roster from test_team_entries where team_id = any(string_to_array(?, ',')::int[])`,
      [teamIds.join(',')],
    );
    return rows.map((r) => ({ teamId: r.team_id, competitionId: r.competition_id, rosterLocked: r.roster_locked, minRoster: r.min_roster, maxRoster: r.max_roster }));
  },
};

export interface TeamsWorld {
  server: TestServerWithLogin;
  admin: Player;
  adminKey: string;
  player(): Promise<Player>;
  /** Enters a team in a competition (locked: running with roster_locked). */
  enter(teamId: number, competitionId: number, entry?: { locked?: boolean; min?: number; max?: number | null }): Promise<void>;
  leaveCompetitions(teamId: number): Promise<void>;
  sql<T = unknown>(query: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

let adminSerial = 0;

export async function startTeamsWorld(env: Record<string, string> = {}): Promise<TeamsWorld> {
  const adminPlatformId = `7656119800009${String(++adminSerial).padStart(4, '0')}`;
  const server = await startTestServerWithLogin({ ADMIN_PLATFORM_IDS: adminPlatformId, ...env }, { teamCompetitions: tableBackedCompetitions });
  const db = server.server.db;
  const sql = <T,>(query: string, params: unknown[] = []) => db.em().execute<T[]>(query, params);
  await sql(`create table test_team_entries (team_id int not null, competition_id int not null, roster_locked boolean not null, min_roster int not null, max_roster int null)`);
  const adminLogin = await server.login(adminPlatformId);
  const admin = new Player(server.url, adminLogin.cookie, adminLogin.user);
  const adminKey = (await issueKey(server, admin.cookie, 'admin')).raw;
  return {
    server,
    admin,
    adminKey,
    sql,
    async player() {
      const { cookie, user } = await server.login(nextPlatformId());
      return new Player(server.url, cookie, user);
    },
    async enter(teamId, competitionId, entry = {}) {
      await sql(`insert into test_team_entries values (?, ?, ?, ?, ?)`, [teamId, competitionId, entry.locked ?? true, entry.min ?? 1, entry.max ?? null]);
    },
    async leaveCompetitions(teamId) {
      await sql(`delete from test_team_entries where team_id = ?`, [teamId]);
    },
    close: () => server.close(),
  };
}

let teamSerial = 0;

/** A fresh team led by `leader`, with `members` invited and joined. */
export async function teamOf(leader: Player, members: Player[] = []): Promise<{ id: number; name: string; tag: string }> {
  const n = ++teamSerial;
  const created = await leader.post('/api/teams', { name: `Team ${n} ${Math.random().toString(36).slice(2, 8)}`, tag: `T${n}${Math.random().toString(36).slice(2, 4)}`.slice(0, 6) });
  if (created.status !== 201) throw new Error(`team create answered ${created.status} ${JSON.stringify(created.body)}`);
  for (const member of members) {
    const invite = await leader.post(`/api/teams/${created.body.id}/invites`, { user_id: member.id });
    if (invite.status !== 201) throw new Error(`invite answered ${invite.status}`);
    const accepted = await member.post(`/api/teams/invites/${invite.body.id}/accept`);
    if (accepted.status !== 200) throw new Error(`accept answered ${accepted.status}`);
  }
  return created.body;
}
