import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BanRepository } from '../../src/db/ban-repository';
import { PremiumRepository } from '../../src/db/premium-repository';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { makeUsers } from './fixtures';

const NOW = new Date('2026-06-01T00:00:00.000Z');
const days = (n: number) => new Date(NOW.getTime() + n * 86_400_000);
const plusDays = (n: number) => (start: Date) => new Date(start.getTime() + n * 86_400_000);

describe('premium grants', () => {
  let t: TestDatabase;
  let premium: PremiumRepository;
  beforeAll(async () => {
    t = await createTestDatabase();
    premium = new PremiumRepository(t.db);
  });
  afterAll(() => t?.drop());

  it('starts a first grant now', async () => {
    const [u] = await makeUsers(t.db, [{}]);
    const grant = await premium.grantExtending({ userId: u.id, plan: '3m', source: 'test', now: NOW, endFrom: plusDays(90) });
    expect(grant).toMatchObject({ userId: u.id, plan: '3m', grantedAt: NOW, expiresAt: days(90) });
    expect((await premium.activeGrant(u.id, days(1)))?.id).toBe(grant.id);
    expect(await premium.activeGrant(u.id, days(90))).toBeNull();
  });

  it('starts a new grant where the current one ends', async () => {
    const [u] = await makeUsers(t.db, [{}]);
    await premium.grantExtending({ userId: u.id, plan: '3m', source: 'a', now: NOW, endFrom: plusDays(90) });
    const second = await premium.grantExtending({ userId: u.id, plan: '6m', source: 'b', now: days(10), endFrom: plusDays(180) });
    expect(second).toMatchObject({ grantedAt: days(90), expiresAt: days(270) });
    expect(await premium.premiumUntil(u.id, days(10))).toEqual(days(270));
    expect((await premium.activeGrant(u.id, days(100)))?.plan).toBe('6m');
  });

  it('counts both of two purchases made at the same moment', async () => {
    const [u] = await makeUsers(t.db, [{}]);
    await Promise.all(
      [1, 2, 3].map((n) =>
        premium.grantExtending({ userId: u.id, plan: '3m', source: `race${n}`, now: NOW, endFrom: plusDays(30) }),
      ),
    );
    expect(await premium.premiumUntil(u.id, NOW)).toEqual(days(90));
  });

  it('starts from now again once premium has lapsed', async () => {
    const [u] = await makeUsers(t.db, [{}]);
    await premium.grantExtending({ userId: u.id, plan: '3m', source: 'a', now: NOW, endFrom: plusDays(30) });
    const later = await premium.grantExtending({ userId: u.id, plan: '3m', source: 'b', now: days(40), endFrom: plusDays(30) });
    expect(later.grantedAt).toEqual(days(40));
    expect(await premium.premiumUntil(u.id, days(80))).toBeNull();
  });
});

describe('bans', () => {
  let t: TestDatabase;
  let bans: BanRepository;
  let admin: number;
  beforeAll(async () => {
    t = await createTestDatabase();
    bans = new BanRepository(t.db);
    [{ id: admin }] = await makeUsers(t.db, [{}]);
  });
  afterAll(() => t?.drop());

  it.each([
    { case: 'before it starts', expiresAt: days(5), when: days(-1), active: false },
    { case: 'while it runs', expiresAt: days(5), when: days(1), active: true },
    { case: 'when it expires', expiresAt: days(5), when: days(5), active: false },
    { case: 'forever when it has no end', expiresAt: null, when: days(5000), active: true },
  ])('is in force $case: $active', async ({ expiresAt, when, active }) => {
    const [u] = await makeUsers(t.db, [{}]);
    await bans.create({ userId: u.id, reason: 'griefing', createdBy: admin, at: NOW, expiresAt });
    expect((await bans.activeBan(u.id, when)) !== null).toBe(active);
  });

  it('is no longer in force once lifted, and lifts only once', async () => {
    const [u] = await makeUsers(t.db, [{}]);
    const ban = await bans.create({ userId: u.id, reason: 'spam', createdBy: null, at: NOW, expiresAt: null });
    expect(await bans.lift(ban.id, days(2))).toBe(true);
    expect(await bans.lift(ban.id, days(3))).toBe(false);
    expect(await bans.activeBan(u.id, days(1))).not.toBeNull();
    expect(await bans.activeBan(u.id, days(2))).toBeNull();
  });

  it('lists bans in force at a moment, newest first', async () => {
    const [u, v] = await makeUsers(t.db, [{}, {}]);
    const a = await bans.create({ userId: u.id, reason: 'a', createdBy: admin, at: days(100), expiresAt: null });
    const b = await bans.create({ userId: v.id, reason: 'b', createdBy: admin, at: days(101), expiresAt: null });
    const lifted = await bans.create({ userId: v.id, reason: 'c', createdBy: admin, at: days(100), expiresAt: null });
    await bans.lift(lifted.id, days(100));
    const ids = (await bans.list({ activeAt: days(102) })).map((x) => x.id);
    expect(ids.slice(0, 2)).toEqual([b.id, a.id]);
    expect(ids).not.toContain(lifted.id);
  });
});
