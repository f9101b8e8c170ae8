import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UsersRepository } from '../../src/db/users-repository';
import { RecentUsers } from '../../src/identity/recent-users';
import { createTestDatabase, truncateAll, type TestDatabase } from '../support/test-database';
import { platformId } from './fixtures';

/*
 * The session user's row on the hot routes: acted on only while known current as of at most
 * maxAgeMs ago, by its load or by the periodic check of the rows in use (one query for all).
 */
describe('RecentUsers', () => {
  let t: TestDatabase;
  let users: UsersRepository;
  let now: number;
  let loads: number;
  let failChecks: boolean;
  let recent: RecentUsers;
  beforeAll(async () => {
    t = await createTestDatabase();
    users = new UsersRepository(t.db);
  });
  beforeEach(async () => {
    await truncateAll(t.db);
    now = 0;
    loads = 0;
    failChecks = false;
    recent = new RecentUsers(
      {
        load: async (id) => {
          loads += 1;
          return (await users.findVersionedByIds([id]))[0] ?? null;
        },
        changed: (known) => (failChecks ? Promise.reject(new Error('database unavailable')) : users.changedRows(known)),
      },
      { maxAgeMs: 500, checkEveryMs: 60_000, now: () => now },
    );
  });
  afterEach(() => recent.stop());
  afterAll(() => t?.drop());

  const login = (username: string) => users.upsertFromLogin({ platformId: platformId(), username, avatarUrl: null, isAdmin: false });
  const rename = (id: number, username: string) => t.db.em().execute('update users set username = ? where id = ?', [username, id]);

  it('keeps acting on a row past its max age while checks find it unchanged, without reading it again', async () => {
    const ada = await login('ada');
    expect((await recent.findById(ada.id))?.username).toBe('ada');
    now = 400;
    await recent.check();
    now = 800;
    expect((await recent.findById(ada.id))?.username).toBe('ada');
    expect(loads).toBe(1);
  });

  it("reads a row again once a check found it changed by an operator's SQL", async () => {
    const ada = await login('ada');
    await recent.findById(ada.id);
    await rename(ada.id, 'ada renamed');
    now = 100;
    await recent.check();
    expect((await recent.findById(ada.id))?.username).toBe('ada renamed');
    expect(loads).toBe(2);
  });

  it('answers no user once a check found the row deleted', async () => {
    const ada = await login('ada');
    await recent.findById(ada.id);
    await t.db.em().execute('delete from users where id = ?', [ada.id]);
    await recent.check();
    expect(await recent.findById(ada.id)).toBeNull();
  });

  it('reads a row again after its max age when the check could not reach the database', async () => {
    const ada = await login('ada');
    await recent.findById(ada.id);
    await rename(ada.id, 'ada renamed');
    failChecks = true;
    now = 400;
    await recent.check();
    now = 500;
    expect((await recent.findById(ada.id))?.username).toBe('ada renamed');
  });

  it('acts on a row loaded less than max age ago without a check', async () => {
    const ada = await login('ada');
    await recent.findById(ada.id);
    await rename(ada.id, 'ada renamed');
    now = 499;
    expect((await recent.findById(ada.id))?.username).toBe('ada');
    expect(loads).toBe(1);
  });
});
