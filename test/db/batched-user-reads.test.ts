import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UsersRepository } from '../../src/db/users-repository';
import { BatchedUserReads } from '../../src/identity/batched-user-reads';
import { createTestDatabase, truncateAll, type TestDatabase } from '../support/test-database';
import { platformId } from './fixtures';

describe('BatchedUserReads', () => {
  let t: TestDatabase;
  let users: UsersRepository;
  /** The id lists the batches asked Postgres for, in order. */
  let asked: number[][];
  let reads: BatchedUserReads;
  beforeAll(async () => {
    t = await createTestDatabase();
    users = new UsersRepository(t.db);
  });
  beforeEach(async () => {
    await truncateAll(t.db);
    asked = [];
    reads = new BatchedUserReads({
      findVersionedByIds: (ids) => {
        asked.push([...ids]);
        return users.findVersionedByIds(ids);
      },
    });
  });
  afterAll(() => t?.drop());

  const login = (username: string) => users.upsertFromLogin({ platformId: platformId(), username, avatarUrl: null, isAdmin: false });

  it('reads the lookups made in one turn with one query, each answered its own row', async () => {
    const [ada, bob] = await Promise.all([login('ada'), login('bob')]);
    const found = await Promise.all([reads.findById(ada.id), reads.findById(bob.id), reads.findById(ada.id)]);
    expect(found.map((user) => user?.user.username)).toEqual(['ada', 'bob', 'ada']);
    expect(asked).toEqual([[ada.id, bob.id]]);
  });

  it('answers null for an id no row has, beside the rows found', async () => {
    const ada = await login('ada');
    const found = await Promise.all([reads.findById(ada.id), reads.findById(ada.id + 1000)]);
    expect(found.map((user) => user?.user.username ?? null)).toEqual(['ada', null]);
  });

  it('sends a lookup made after a batch went out in a query of its own, which sees a change made meanwhile', async () => {
    const ada = await login('ada');
    expect((await reads.findById(ada.id))?.user.username).toBe('ada');
    await t.db.em().execute('update users set username = ? where id = ?', ['ada renamed', ada.id]);
    expect((await reads.findById(ada.id))?.user.username).toBe('ada renamed');
    expect(asked).toEqual([[ada.id], [ada.id]]);
  });

  it('hands a failed query to every lookup of its batch, and the next turn asks again', async () => {
    const ada = await login('ada');
    let fail = true;
    const failing = new BatchedUserReads({
      findVersionedByIds: (ids) => (fail ? Promise.reject(new Error('database unavailable')) : users.findVersionedByIds(ids)),
    });
    const results = await Promise.allSettled([failing.findById(ada.id), failing.findById(ada.id + 1)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect((await failing.findById(ada.id))?.user.username).toBe('ada');
  });
});
