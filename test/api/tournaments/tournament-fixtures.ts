import { expect } from 'vitest';
import type { EmSource } from '../../../src/db/orm';
import { nextPlatformId, type Player } from '../lobby/lobby-client';

let teamCounter = 0;

export interface TestTeam {
  id: number;
  leader: Player;
}

/**
 * A team written straight into the teams tables (the teams routes are another area's): the
 * logged-in `leader` leads it, and `others` more members with the given ELO fill the roster.
 */
export async function makeTeam(db: EmSource, leader: Player, options: { others?: number; elo?: number } = {}): Promise<TestTeam> {
  const em = db.em();
  const n = ++teamCounter;
  const [team] = await em.execute<{ id: number }[]>(`insert into teams (name, tag, leader_id) values (?, ?, ?) returning id`, [
    `Team ${n} ${Date.now() % 100000}`, `T${n}`, leader.id,
  ]);
  const elo = options.elo ?? 1000;
  await em.execute('update users set elo = ? where id = ?', [elo, leader.id], 'run');
  await em.execute(`insert into team_memberships (team_id, user_id, role) values (?, ?, 'leader')`, [team!.id, leader.id], 'run');
  for (let i = 0; i < (options.others ?? 1); i += 1) {
    const [user] = await em.execute<{ id: number }[]>(`insert into users (platform_id, username, elo) values (?, ?, ?) returning id`, [
      nextPlatformId(), `member${n}_${i}`, elo,
    ]);
    await em.execute(`insert into team_memberships (team_id, user_id, role) values (?, ?, 'member')`, [team!.id, user!.id], 'run');
  }
  return { id: team!.id, leader };
}

/** A creation body for an ultiduo tournament (two players a team), starting in an hour. */
export function tournamentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Test Cup',
    format: 'ultiduo',
    kind: 'single_elimination',
    max_teams: 16,
    starts_at: new Date(Date.now() + 3_600_000).toISOString(),
    ...overrides,
  };
}

/** Reports and confirms every ready match, the home team winning, until none is ready; `viewer` reads the bracket. */
export async function playOut(viewer: Player, id: number, all: TestTeam[]): Promise<number> {
  const leaderOf = (teamId: number) => all.find((t) => t.id === teamId)!.leader;
  let played = 0;
  for (;;) {
    const answer = await viewer.get(`/api/tournaments/${id}/bracket`);
    const ready = answer.body.stages.flatMap((s: any) => s.rounds.flatMap((r: any) => r.matches)).filter((m: any) => m.status === 'ready');
    if (ready.length === 0) return played;
    for (const match of ready) {
      const report = await leaderOf(match.home.team_id).post(`/api/tournaments/${id}/matches/${match.id}/report`, { home_score: 2, away_score: 0 });
      expect(report.status, JSON.stringify(report.body)).toBe(200);
      const confirm = await leaderOf(match.away.team_id).post(`/api/tournaments/${id}/matches/${match.id}/confirm`);
      expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
      played += 1;
    }
  }
}
