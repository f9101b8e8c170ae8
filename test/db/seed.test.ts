import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicReadRepository } from '../../src/db/public-read-repository';
import { seedDemo, seedDemoIfEmpty } from '../../src/composition/demo-seed';
import { KNOWN_MAPS } from '../../src/domain/lobby/formats';
import { createTestDatabase, truncateAll, type TestDatabase } from '../support/test-database';

const NOW = new Date('2026-07-01T18:00:00.000Z');

describe('demo data', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await seedDemo(t.db, NOW);
  });
  afterAll(() => t?.drop());

  const one = async <T>(sql: string) => (await t.db.em().execute<T[]>(sql))[0];

  it('holds 12 players, 8 matches, 5 changelog entries and an announcement active now', async () => {
    const reads = new PublicReadRepository(t.db);
    const stats = await reads.globalStats(NOW);
    expect(stats).toMatchObject({ total_users: 12, total_matches: 8 });
    expect(stats.matches_today).toBeGreaterThan(0);
    expect(await reads.changelog(100)).toHaveLength(5);
    expect(await reads.activeAnnouncement(NOW)).not.toBeNull();
  });

  it('holds forum categories and threads whose post counts match their posts', async () => {
    const row = await one<{ categories: number; threads: number; incoherent: number }>(`
      select (select count(*)::int from community_categories) as categories, (select count(*)::int from community_threads) as threads,
        (select count(*)::int from community_threads t where t.post_count <> (select count(*) from community_posts p where p.thread_id = t.id)) as incoherent`);
    expect(row).toEqual({ categories: 3, threads: 3, incoherent: 0 });
  });

  it('gives every player a rating that is 1000 plus their recorded changes', async () => {
    const row = await one<{ incoherent: number }>(`
      select count(*)::int as incoherent from users u
      where u.elo <> 1000 + coalesce((select sum(elo_after - elo_before) from match_players where user_id = u.id), 0)
         or u.matches_played <> (select count(*) from match_players where user_id = u.id)`);
    expect(row.incoherent).toBe(0);
  });

  it('gives every player a balance that is the sum of their ledger, earned from the recorded matches', async () => {
    const row = await one<{ incoherent: number; holders: number }>(`
      select
        (select count(*)::int from users u left join point_balances b on b.user_id = u.id
          where coalesce(b.balance, 0) <> coalesce((select sum(amount) from point_transactions where user_id = u.id), 0)) as incoherent,
        (select count(*)::int from point_balances where balance > 0) as holders`);
    expect(row).toEqual({ incoherent: 0, holders: 12 });
  });

  it('shows a few bought name colours and frames on demo profiles', async () => {
    const row = await one<{ colours: number; frames: number; redemptions: number }>(`
      select count(name_color)::int as colours, count(profile_frame)::int as frames,
        (select count(*)::int from point_redemptions) as redemptions from users`);
    expect(row).toEqual({ colours: 2, frames: 2, redemptions: 4 });
  });

  it('spreads the ratings out', async () => {
    const row = await one<{ distinct_elos: number }>('select count(distinct elo)::int as distinct_elos from users');
    expect(row.distinct_elos).toBeGreaterThanOrEqual(6);
  });

  it('is added by seedIfEmpty only to a database without users', async () => {
    expect(await seedDemoIfEmpty(t.db, NOW)).toBe(false);
    await truncateAll(t.db);
    expect(await seedDemoIfEmpty(t.db, NOW)).toBe(true);
    expect((await one<{ n: number }>('select count(*)::int as n from users')).n).toBe(12);
  });

  it('records matches only on maps of the map list', async () => {
    const rows = await t.db.em().execute<{ map: string }[]>('select distinct map from matches');
    expect(rows.length).toBeGreaterThan(0);
    for (const { map } of rows) expect(KNOWN_MAPS).toContain(map);
  });
});
