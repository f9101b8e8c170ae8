import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MatchRepository } from '../../src/db/match-repository';
import { openDatabase, type Database } from '../../src/db/orm';
import { walletIn } from '../../src/db/point-ledger';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { makeUsers, report } from './fixtures';

describe('points for a reported match', () => {
  let t: TestDatabase;
  let matches: MatchRepository;
  beforeAll(async () => {
    t = await createTestDatabase();
    matches = new MatchRepository(t.db, { played: 10, won: 15 });
  });
  afterAll(() => t?.drop());

  const ledger = (matchUserIds: number[]) =>
    t.db
      .em()
      .execute<{ user_id: number; amount: number; kind: string; balance_after: number; source_key: string }[]>(
        'select user_id, amount, kind, balance_after, source_key from point_transactions where user_id in (?) order by user_id, id',
        [matchUserIds],
      );

  it('pays every player, and a winner more, in ledger rows of kind match', async () => {
    const [a, b, c, d] = await makeUsers(t.db, [{}, {}, {}, {}]);
    const { matchId } = await matches.recordMatch(report([a.id, b.id, c.id, d.id], 3, 1));
    const rows = await ledger([a.id, b.id, c.id, d.id]);
    expect(rows.map((r) => [r.user_id, r.amount, r.kind, r.balance_after])).toEqual([
      [a.id, 25, 'match', 25],
      [b.id, 25, 'match', 25],
      [c.id, 10, 'match', 10],
      [d.id, 10, 'match', 10],
    ]);
    expect(rows[0].source_key).toBe(`match:${matchId}:user:${a.id}`);
    expect(await walletIn(t.db.em(), a.id)).toEqual({ balance: 25, lifetimeEarned: 25, lifetimeSpent: 0 });
  });

  it('pays everyone the played amount for a draw', async () => {
    const [a, b] = await makeUsers(t.db, [{}, {}]);
    await matches.recordMatch(report([a.id, b.id], 2, 2));
    expect((await ledger([a.id, b.id])).map((r) => r.amount)).toEqual([10, 10]);
  });

  it('uses the configured amounts, and writes no row for a payout of zero', async () => {
    const [a, b] = await makeUsers(t.db, [{}, {}]);
    await new MatchRepository(t.db, { played: 0, won: 40 }).recordMatch(report([a.id, b.id], 0, 5));
    expect((await ledger([a.id, b.id])).map((r) => [r.user_id, r.amount])).toEqual([[b.id, 40]]);
  });

  it('pays nothing more when the same match is reported again', async () => {
    const [a, b] = await makeUsers(t.db, [{}, {}]);
    const first = report([a.id, b.id], 1, 0);
    await matches.recordMatch(first);
    const again = await matches.recordMatch(first);
    expect(again.created).toBe(false);
    expect((await ledger([a.id, b.id])).map((r) => r.amount)).toEqual([25, 10]);
  });

  it('pays exactly once when two instances report the same match at the same moment', async () => {
    const other: Database = await openDatabase({ databaseUrl: t.url, dataDir: ':memory:', logger: pino({ level: 'silent' }) });
    try {
      const players = await makeUsers(t.db, Array.from({ length: 12 }, () => ({})));
      const ids = players.map((p) => p.id);
      const same = report(ids, 4, 2);
      const results = await Promise.all([
        matches.recordMatch(same),
        new MatchRepository(other).recordMatch(same),
        matches.recordMatch(same),
        new MatchRepository(other).recordMatch(same),
      ]);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.matchId)).size).toBe(1);
      const rows = await ledger(ids);
      expect(rows).toHaveLength(12);
      expect(rows.map((r) => r.amount)).toEqual([...Array(6).fill(25), ...Array(6).fill(10)]);
    } finally {
      await other.close();
    }
  });
});
