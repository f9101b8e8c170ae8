import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BanRepository, domainBan } from '../../src/db/ban-repository';
import { isBanned } from '../../src/domain/access/ban';
import { BanList } from '../../src/engine/ban-list';
import { MemoryLiveStore } from '../../src/live/memory-live-store';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { makeUsers } from './fixtures';

const GIVEN = new Date('2026-06-01T00:00:00.000Z');
const at = (ms: number) => new Date(GIVEN.getTime() + ms);

/** Each ban's shape and the moments around its edges: given, expiry, lift (one millisecond either side and on it). */
const SHAPES = [
  { name: 'permanent', expiresAt: null, liftedAt: null },
  { name: 'timed', expiresAt: at(10_000), liftedAt: null },
  { name: 'lifted', expiresAt: null, liftedAt: at(5_000) },
  { name: 'lifted before it expired', expiresAt: at(10_000), liftedAt: at(5_000) },
];
const MOMENTS = [-1, 0, 1, 4_999, 5_000, 5_001, 9_999, 10_000, 10_001];

describe('a ban in force: the SQL forms and the domain agree', () => {
  let t: TestDatabase;
  let bans: BanRepository;
  const cases: Array<{ userId: number; name: string; ms: number }> = [];

  beforeAll(async () => {
    t = await createTestDatabase();
    bans = new BanRepository(t.db);
    const users = await makeUsers(t.db, SHAPES.map(() => ({})));
    for (const [i, shape] of SHAPES.entries()) {
      const ban = await bans.create({ userId: users[i].id, reason: shape.name, createdBy: null, at: GIVEN, expiresAt: shape.expiresAt });
      if (shape.liftedAt) await bans.lift(ban.id, shape.liftedAt);
      for (const ms of MOMENTS) cases.push({ userId: users[i].id, name: shape.name, ms });
    }
  });
  afterAll(() => t?.drop());

  it('answers the domain rule from activeBan, the admin list of bans in force, and the in-memory ban list at every edge', async () => {
    for (const { userId, name, ms } of cases) {
      const now = at(ms);
      const [stored] = await bans.list({ limit: 500 }).then((all) => all.filter((b) => b.userId === userId));
      const expected = isBanned(domainBan(stored), now.getTime());
      const list = new BanList({ live: new MemoryLiveStore(), loadCurrent: (when) => bans.current(when), clock: () => now.getTime() });
      const seen = {
        activeBan: (await bans.activeBan(userId, now)) !== null,
        listActive: (await bans.list({ activeAt: now })).some((b) => b.userId === userId),
        pageActive: (await bans.page({ status: 'active', userId, now, limit: 10, page: 1 })).total === 1,
        pagePast: (await bans.page({ status: 'past', userId, now, limit: 10, page: 1 })).total === 0,
        banList: (await list.activeBan(userId, now)) !== null,
      };
      expect({ name, ms, ...seen }).toEqual({ name, ms, activeBan: expected, listActive: expected, pageActive: expected, pagePast: expected, banList: expected });
    }
  });
});
