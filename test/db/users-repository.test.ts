import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toUserPublic } from '../../src/db/user-record';
import { UsersRepository } from '../../src/db/users-repository';
import { createTestDatabase, truncateAll, type TestDatabase } from '../support/test-database';
import { makeUsers, platformId } from './fixtures';

describe('UsersRepository', () => {
  let t: TestDatabase;
  let users: UsersRepository;
  beforeAll(async () => {
    t = await createTestDatabase();
    users = new UsersRepository(t.db);
  });
  beforeEach(() => truncateAll(t.db));
  afterAll(() => t?.drop());

  const login = (id: string, username = 'scout', at = new Date('2026-02-01T10:00:00Z')) =>
    users.upsertFromLogin({ platformId: id, username, avatarUrl: 'https://img/a.png', isAdmin: false, at });

  it('creates a user at 1000 ELO with no matches on first login', async () => {
    const user = await login(platformId());
    expect(user).toMatchObject({ elo: 1000, matchesPlayed: 0, wins: 0, losses: 0, isAdmin: false, chatAccountId: null });
    expect(user.lastLoginAt).toEqual(new Date('2026-02-01T10:00:00Z'));
  });

  it('updates name, avatar, admin flag and login time on a later login, keeping id and rating', async () => {
    const id = platformId();
    const first = await login(id);
    await t.db.em().execute('update users set elo = 1234 where id = ?', [first.id]);
    const later = await users.upsertFromLogin({
      platformId: id,
      username: 'renamed',
      avatarUrl: null,
      isAdmin: true,
      at: new Date('2026-02-02T10:00:00Z'),
    });
    expect(later).toMatchObject({ id: first.id, username: 'renamed', avatarUrl: null, isAdmin: true, elo: 1234 });
    expect(later.lastLoginAt).toEqual(new Date('2026-02-02T10:00:00Z'));
    expect(await users.countUsers()).toBe(1);
  });

  it('finds users by id, by platform id and in batches ordered by id', async () => {
    const [a, b] = await makeUsers(t.db, [{}, {}]);
    expect((await users.findById(a.id))?.platformId).toBe(a.platformId);
    expect((await users.findByPlatformId(b.platformId))?.id).toBe(b.id);
    expect(await users.findById(999_999)).toBeNull();
    expect((await users.findManyByIds([b.id, 999_999, a.id, b.id])).map((u) => u.id)).toEqual([a.id, b.id]);
    expect(await users.findManyByIds([])).toEqual([]);
  });

  it('ranks the leaderboard by ELO, ties to the older account, up to the limit', async () => {
    const made = await makeUsers(t.db, [{ elo: 1100 }, { elo: 1300 }, { elo: 1100 }, { elo: 900 }, { elo: 1250 }]);
    const board = await users.leaderboard(4);
    expect(board.map((u) => u.id)).toEqual([made[1].id, made[4].id, made[0].id, made[2].id]);
  });

  it('counts users', async () => {
    await makeUsers(t.db, [{}, {}, {}]);
    expect(await users.countUsers()).toBe(3);
  });

  it('links a chat account, and links it again to the same user', async () => {
    const [a] = await makeUsers(t.db, [{}]);
    expect(await users.setChatAccount(a.id, 'chat-1', 'Scout#1')).toMatchObject({
      ok: true,
      user: { chatAccountId: 'chat-1', chatUsername: 'Scout#1' },
    });
    expect((await users.setChatAccount(a.id, 'chat-1', 'Scout#2')).ok).toBe(true);
  });

  it('refuses a chat account linked to another user, leaving both users as they were', async () => {
    const [a, b] = await makeUsers(t.db, [{}, {}]);
    await users.setChatAccount(a.id, 'chat-1', 'A');
    expect(await users.setChatAccount(b.id, 'chat-1', 'B')).toEqual({ ok: false, reason: 'linked_to_another_user' });
    expect((await users.findById(b.id))?.chatAccountId).toBeNull();
    expect((await users.findById(a.id))?.chatAccountId).toBe('chat-1');
  });

  it('reports a missing user when linking a chat account', async () => {
    expect(await users.setChatAccount(424242, 'chat-9', 'X')).toEqual({ ok: false, reason: 'user_not_found' });
  });

  it('clears a chat account so another user may link it', async () => {
    const [a, b] = await makeUsers(t.db, [{}, {}]);
    await users.setChatAccount(a.id, 'chat-1', 'A');
    expect(await users.clearChatAccount(a.id)).toBe(true);
    expect((await users.findById(a.id))?.chatUsername).toBeNull();
    expect((await users.setChatAccount(b.id, 'chat-1', 'B')).ok).toBe(true);
  });

  it('touches last_seen_at of a whole batch in one statement', async () => {
    const [a, b, c] = await makeUsers(t.db, [{}, {}, {}]);
    const at = new Date('2026-03-03T03:03:03.000Z');
    expect(await users.touchLastSeen([a.id, b.id, a.id], at)).toBe(2);
    expect((await users.findById(a.id))?.lastSeenAt).toEqual(at);
    expect((await users.findById(b.id))?.lastSeenAt).toEqual(at);
    expect((await users.findById(c.id))?.lastSeenAt).not.toEqual(at);
    expect(await users.touchLastSeen([], at)).toBe(0);
  });

  it('shows a bought avatar instead of the platform one in public', async () => {
    const [a] = await makeUsers(t.db, [{}]);
    await t.db.em().execute("update users set avatar_url = 'https://p/1.png', custom_avatar_url = 'https://c/1.png' where id = ?", [a.id]);
    const user = (await users.findById(a.id))!;
    expect(toUserPublic(user)).toEqual({
      id: a.id,
      platform_id: a.platformId,
      username: a.username,
      avatar_url: 'https://c/1.png',
      elo: 1000,
      name_color: null,
      profile_frame: null,
    });
  });
});
