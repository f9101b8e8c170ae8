import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/domain-error';
import { MatchRepository } from '../../src/db/match-repository';
import { UsersRepository } from '../../src/db/users-repository';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { lobbyCode, makeUsers, report } from './fixtures';

describe('recordMatch', () => {
  let t: TestDatabase;
  let matches: MatchRepository;
  let users: UsersRepository;
  beforeAll(async () => {
    t = await createTestDatabase();
    matches = new MatchRepository(t.db);
    users = new UsersRepository(t.db);
  });
  afterAll(() => t?.drop());

  const countMatches = async (code: string) => {
    const [row] = await t.db.em().execute<{ n: number }[]>('select count(*)::int as n from matches where lobby_code = ?', [code]);
    return row.n;
  };

  it('writes the match, each player line and the new ratings', async () => {
    const [a, b, c, d] = await makeUsers(t.db, [
      { elo: 900, matchesPlayed: 20 },
      { elo: 1100, matchesPlayed: 3 },
      { elo: 1200, matchesPlayed: 20 },
      { elo: 1200, matchesPlayed: 0 },
    ]);
    const result = await matches.recordMatch(report([a.id, b.id, c.id, d.id], 3, 1));

    expect(result.created).toBe(true);
    const lines = await t.db
      .em()
      .execute<{ user_id: number; elo_before: number; elo_after: number; won: boolean | null }[]>(
        'select user_id, elo_before, elo_after, won from match_players where match_id = ? order by user_id',
        [result.matchId],
      );
    expect(lines).toEqual([
      { user_id: a.id, elo_before: 900, elo_after: 912, won: true },
      { user_id: b.id, elo_before: 1100, elo_after: 1124, won: true },
      { user_id: c.id, elo_before: 1200, elo_after: 1188, won: false },
      { user_id: d.id, elo_before: 1200, elo_after: 1176, won: false },
    ]);
    const after = await users.findManyByIds([a.id, b.id, c.id, d.id]);
    expect(after.map((u) => [u.elo, u.matchesPlayed, u.wins, u.losses])).toEqual([
      [912, 21, 1, 0],
      [1124, 4, 1, 0],
      [1188, 21, 0, 1],
      [1176, 1, 0, 1],
    ]);
  });

  it('stores the winner, duration and a null won for a draw', async () => {
    const [a, b] = await makeUsers(t.db, [{}, {}]);
    const r = report([a.id, b.id], 2, 2);
    const { matchId } = await matches.recordMatch(r);
    const [match] = await t.db
      .em()
      .execute<{ winner: string; duration_seconds: number }[]>('select winner, duration_seconds from matches where id = ?', [matchId]);
    expect(match).toEqual({ winner: 'draw', duration_seconds: 1800 });
    const won = await t.db.em().execute<{ won: boolean | null }[]>('select won from match_players where match_id = ?', [matchId]);
    expect(won).toEqual([{ won: null }, { won: null }]);
    const [ua, ub] = await users.findManyByIds([a.id, b.id]);
    expect([ua.wins, ua.losses, ua.matchesPlayed, ub.wins, ub.losses, ub.matchesPlayed]).toEqual([0, 0, 1, 0, 0, 1]);
  });

  it('returns the first match and changes nothing when the lobby is reported again', async () => {
    const [a, b] = await makeUsers(t.db, [{}, {}]);
    const first = await matches.recordMatch(report([a.id, b.id], 5, 0));
    const again = await matches.recordMatch({ ...report([a.id, b.id], 0, 5), lobbyCode: (await codeOf(first.matchId)) });

    expect(again).toEqual({ matchId: first.matchId, created: false, changes: [] });
    const [ua] = await users.findManyByIds([a.id]);
    expect([ua.elo, ua.matchesPlayed, ua.wins]).toEqual([1016, 1, 1]);
  });

  it('records one match when the same lobby is reported twice at once', async () => {
    const [a, b, c, d] = await makeUsers(t.db, [{}, {}, {}, {}]);
    const r = report([a.id, b.id, c.id, d.id], 3, 2);
    const results = await Promise.all([matches.recordMatch(r), matches.recordMatch({ ...r })]);

    expect(results.map((x) => x.created).sort()).toEqual([false, true]);
    expect(results[0].matchId).toBe(results[1].matchId);
    expect(await countMatches(r.lobbyCode)).toBe(1);
    const after = await users.findManyByIds([a.id, b.id, c.id, d.id]);
    expect(after.map((u) => u.matchesPlayed)).toEqual([1, 1, 1, 1]);
  });

  it('keeps every count exact when 20 matches sharing players are reported at once', async () => {
    const pool = await makeUsers(t.db, Array.from({ length: 6 }, () => ({})));
    const reports = Array.from({ length: 20 }, (_, i) => {
      // Every match takes four of the six players, in a different order, so rows are locked in contention.
      const ids = [0, 1, 2, 3, 4, 5].map((k) => pool[(i + k * 5) % 6].id).slice(0, 4);
      return report(ids, i % 3, 1);
    });
    const results = await Promise.all(reports.map((r) => matches.recordMatch(r)));

    expect(results.every((r) => r.created)).toBe(true);
    const after = await users.findManyByIds(pool.map((u) => u.id));
    const appearances = (id: number) => reports.filter((r) => r.players.some((p) => p.userId === id)).length;
    expect(after.map((u) => u.matchesPlayed)).toEqual(pool.map((u) => appearances(u.id)));
    for (const u of after) expect(u.wins + u.losses).toBeLessThanOrEqual(u.matchesPlayed);
    // Each user's rating is the last elo_after written for them: no lost update between matches.
    const last = await t.db
      .em()
      .execute<{ user_id: number; elo_after: number }[]>(
        `select distinct on (user_id) user_id, elo_after from match_players
         where user_id in (?) order by user_id, id desc`,
        [pool.map((u) => u.id)],
      );
    expect(last.map((r) => r.elo_after)).toEqual(after.map((u) => u.elo));
  });

  it('chains ratings: each line starts where the previous match of that player ended', async () => {
    const [a, b] = await makeUsers(t.db, [{}, {}]);
    await matches.recordMatch(report([a.id, b.id], 1, 0));
    await matches.recordMatch(report([a.id, b.id], 1, 0));
    const lines = await t.db
      .em()
      .execute<{ elo_before: number; elo_after: number }[]>(
        'select elo_before, elo_after from match_players where user_id = ? order by id',
        [a.id],
      );
    expect(lines[1].elo_before).toBe(lines[0].elo_after);
  });

  it('refuses an unknown user and leaves no match behind', async () => {
    const [a] = await makeUsers(t.db, [{}]);
    const r = report([a.id, 987654], 1, 0);
    await expect(matches.recordMatch(r)).rejects.toMatchObject({ kind: 'not_found' });
    expect(await countMatches(r.lobbyCode)).toBe(0);
    const [ua] = await users.findManyByIds([a.id]);
    expect(ua.matchesPlayed).toBe(0);
  });

  it('refuses a player listed twice', async () => {
    const [a, b] = await makeUsers(t.db, [{}, {}]);
    const r = report([a.id, b.id, a.id], 1, 0);
    await expect(matches.recordMatch(r)).rejects.toBeInstanceOf(DomainError);
    expect(await countMatches(r.lobbyCode)).toBe(0);
  });

  it('records a match with a fresh lobby code and no players', async () => {
    const result = await matches.recordMatch({ ...report([], 0, 0), lobbyCode: lobbyCode() });
    expect(result.created).toBe(true);
  });

  async function codeOf(matchId: number): Promise<string> {
    const [row] = await t.db.em().execute<{ lobby_code: string }[]>('select lobby_code from matches where id = ?', [matchId]);
    return row.lobby_code;
  }
});
