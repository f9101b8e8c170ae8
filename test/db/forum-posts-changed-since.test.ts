import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForumReads } from '../../src/db/community/forum-reads';
import { ForumWrites } from '../../src/db/community/forum-writes';
import { makeUsers } from './fixtures';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/*
 * What a thread post feed that lost its messages reads again: every post of the watched threads
 * whose change (writing, approval, edit, deletion) is at `since` or later, and queued ones only
 * once approved.
 */
describe('the posts changed since a moment', () => {
  let t: TestDatabase;
  let reads: ForumReads;
  let threadId: number;
  let authorId: number;
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 29, 20, minute));

  beforeAll(async () => {
    t = await createTestDatabase();
    reads = new ForumReads(t.db);
    [{ id: authorId }] = await makeUsers(t.db, [{}]);
    const [{ id: categoryId }] = await t.db.em().execute<{ id: number }[]>("insert into community_categories (slug, name) values ('feed', 'Feed') returning id");
    threadId = await ForumWrites.insertThread(t.db.em(), { categoryId, title: 'Changes', authorId, pending: false, at: at(0) });
    await ForumWrites.insertPost(t.db.em(), { threadId, authorId, body: 'first', bodyHtml: '<p>first</p>', pending: false, at: at(0) });
  }, 60_000);
  afterAll(() => t?.drop());

  const changedSince = async (minute: number) => (await reads.postsChangedSince([threadId], at(minute))).map((row) => row.body);

  it('holds a post written at that moment or later, and not one written before', async () => {
    await ForumWrites.insertPost(t.db.em(), { threadId, authorId, body: 'written at 10', bodyHtml: '', pending: false, at: at(10) });

    expect(await changedSince(10)).toEqual(['written at 10']);
    expect(await changedSince(11)).toEqual([]);
  });

  it('leaves out a queued post until it is approved', async () => {
    await ForumWrites.insertPost(t.db.em(), { threadId, authorId, body: 'queued at 20', bodyHtml: '', pending: true, at: at(20) });

    expect(await changedSince(20)).toEqual([]);
  });

  it('holds a queued post approved at that moment or later, though it was written before', async () => {
    const postId = await ForumWrites.insertPost(t.db.em(), { threadId, authorId, body: 'queued at 30', bodyHtml: '', pending: true, at: at(30) });
    await ForumWrites.releasePost(t.db.em(), { id: postId, threadId }, at(40));

    expect(await changedSince(35)).toEqual(['queued at 30']);
    expect(await changedSince(41)).toEqual([]);
  });

  it('holds a post edited or deleted at that moment or later, though it was written before', async () => {
    const edited = await ForumWrites.insertPost(t.db.em(), { threadId, authorId, body: 'written at 50', bodyHtml: '', pending: false, at: at(50) });
    const deleted = await ForumWrites.insertPost(t.db.em(), { threadId, authorId, body: 'to go at 52', bodyHtml: '', pending: false, at: at(50) });
    await ForumWrites.editPost(t.db.em(), { postId: edited, oldBody: 'written at 50', body: 'edited at 51', bodyHtml: '', editorId: authorId, at: at(51) });
    await ForumWrites.deletePost(t.db.em(), { id: deleted, threadId, pending: false }, at(52));

    expect(await changedSince(51)).toEqual(['edited at 51', 'to go at 52']);
  });
});
