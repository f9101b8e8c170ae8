import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Announcement, ChangelogEntry } from '../../src/db/entities';
import { MatchRepository } from '../../src/db/match-repository';
import { PublicReadRepository } from '../../src/db/public-read-repository';
import { createTestDatabase, truncateAll, type TestDatabase } from '../support/test-database';
import { makeUsers, report } from './fixtures';

const NOW = new Date('2026-05-10T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);

describe('PublicReadRepository', () => {
  let t: TestDatabase;
  let reads: PublicReadRepository;
  let matches: MatchRepository;
  beforeAll(async () => {
    t = await createTestDatabase();
    reads = new PublicReadRepository(t.db);
    matches = new MatchRepository(t.db);
  });
  beforeEach(() => truncateAll(t.db));
  afterAll(() => t?.drop());

  /** n matches between two fresh players, the i-th ending i hours before NOW (newest is i = 0). */
  async function matchesEndingHourly(n: number) {
    const [a, b] = await makeUsers(t.db, [{}, {}]);
    const ids: number[] = [];
    for (let i = n - 1; i >= 0; i--) {
      ids.unshift((await matches.recordMatch(report([a.id, b.id], 3, 1, { endedAt: hoursAgo(i) }))).matchId);
    }
    return { ids, a, b };
  }

  it('counts users, all matches and the matches of the last 24 hours', async () => {
    const [a, b] = await makeUsers(t.db, [{ elo: 1400 }, {}]);
    await makeUsers(t.db, [{}]);
    for (const h of [1, 23, 25, 200]) await matches.recordMatch(report([a.id, b.id], 1, 0, { endedAt: hoursAgo(h) }));
    const stats = await reads.globalStats(NOW);
    expect(stats).toMatchObject({ total_users: 3, total_matches: 4, matches_today: 2 });
    expect(stats.top_elo).toBeGreaterThan(1400);
  });

  it('reports no top ELO on an empty league', async () => {
    expect(await reads.globalStats(NOW)).toEqual({ total_users: 0, total_matches: 0, matches_today: 0, top_elo: null });
  });

  it('pages recent matches newest first with the total of all matches', async () => {
    const { ids } = await matchesEndingHourly(5);
    const first = await reads.recentMatches(2, 1);
    const third = await reads.recentMatches(2, 3);
    const beyond = await reads.recentMatches(2, 4);
    expect(first.total).toBe(5);
    expect(first.matches.map((m) => m.id)).toEqual([ids[0], ids[1]]);
    expect(third.matches.map((m) => m.id)).toEqual([ids[4]]);
    expect(beyond).toEqual({ matches: [], total: 5 });
  });

  it('summarises a match in its wire shape', async () => {
    const { ids } = await matchesEndingHourly(1);
    const [summary] = (await reads.recentMatches(10, 1)).matches;
    expect(summary).toEqual({
      id: ids[0],
      lobby_code: expect.any(String),
      format: '6v6',
      map: 'cp_process_f12',
      score_red: 3,
      score_blu: 1,
      winner: 'red',
      duration_seconds: 1800,
      started_at: '2026-05-10T11:30:00.000Z',
      ended_at: '2026-05-10T12:00:00.000Z',
      player_count: 2,
    });
  });

  it('details a match with its players and their rating changes', async () => {
    const { ids, a, b } = await matchesEndingHourly(1);
    const detail = await reads.matchById(ids[0]);
    expect(detail?.players).toEqual([
      {
        user: expect.objectContaining({ id: a.id, username: a.username, elo: 1016 }),
        team: 'red',
        class: 'soldier',
        elo_before: 1000,
        elo_after: 1016,
        elo_change: 16,
        won: true,
      },
      {
        user: expect.objectContaining({ id: b.id, elo: 984 }),
        team: 'blu',
        class: 'soldier',
        elo_before: 1000,
        elo_after: 984,
        elo_change: -16,
        won: false,
      },
    ]);
    expect(await reads.matchPlayers(ids[0])).toEqual(detail?.players);
  });

  it('answers null for a match that does not exist', async () => {
    expect(await reads.matchById(4242)).toBeNull();
    expect(await reads.matchPlayers(4242)).toBeNull();
  });

  it('lists the changelog newest first up to the limit', async () => {
    const em = t.db.em();
    for (let i = 1; i <= 4; i++) {
      em.create(ChangelogEntry, { version: `0.${i}`, title: `t${i}`, body: 'b', createdAt: hoursAgo(100 - i) });
    }
    await em.flush();
    const entries = await reads.changelog(3);
    expect(entries.map((e) => e.version)).toEqual(['0.4', '0.3', '0.2']);
    expect(entries[0]).toEqual({ id: expect.any(Number), version: '0.4', title: 't4', body: 'b', created_at: hoursAgo(96).toISOString() });
  });

  describe('active announcement', () => {
    const announce = async (title: string, startsAt: Date, endsAt: Date | null, createdAt: Date) => {
      const em = t.db.em();
      em.create(Announcement, { title, body: 'b', level: 'warning', startsAt, endsAt, createdAt });
      await em.flush();
    };

    it.each([
      { case: 'starts now', startsAt: NOW, endsAt: hoursAgo(-1), active: true },
      { case: 'has no end', startsAt: hoursAgo(5), endsAt: null, active: true },
      { case: 'ends now', startsAt: hoursAgo(5), endsAt: NOW, active: false },
      { case: 'has ended', startsAt: hoursAgo(5), endsAt: hoursAgo(1), active: false },
      { case: 'starts later', startsAt: hoursAgo(-1), endsAt: null, active: false },
    ])('is shown when its window contains now: $case -> $active', async ({ startsAt, endsAt, active }) => {
      await announce('only', startsAt, endsAt, hoursAgo(10));
      const found = await reads.activeAnnouncement(NOW);
      expect(found !== null).toBe(active);
    });

    it('is the newest of several whose windows contain now, in wire shape', async () => {
      await announce('older', hoursAgo(5), null, hoursAgo(5));
      await announce('newer', hoursAgo(48), hoursAgo(-48), hoursAgo(2));
      await announce('newest but over', hoursAgo(5), hoursAgo(1), hoursAgo(1));
      expect(await reads.activeAnnouncement(NOW)).toEqual({
        id: expect.any(Number),
        title: 'newer',
        body: 'b',
        level: 'warning',
        starts_at: hoursAgo(48).toISOString(),
        ends_at: hoursAgo(-48).toISOString(),
        active: true,
      });
    });
  });
});
