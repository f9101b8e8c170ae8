import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import type { Player } from '../lobby/lobby-client';
import { anonymousGet, forumUser } from './forum-client';

/**
 * COMMUNITY_QUEUE_FIRST_POSTS=1: a new user's first post waits as an approval of kind forum_post
 * (202 {approval_id}) and shows once an admin approves it; a denied one never shows. The posting
 * limit (COMMUNITY_POSTS_PER_MINUTE=3 here) answers 429 with Retry-After.
 */
const adminPlatformId = '76561198000025002';
let server: TestServerWithLogin;
let admin: Player;
let categoryId: number;

const newPlayer = (platformId?: string) => forumUser(server, platformId);
const anonymous = (path: string) => anonymousGet(server, path);

beforeAll(async () => {
  server = await startTestServerWithLogin({ ADMIN_PLATFORM_IDS: adminPlatformId, COMMUNITY_QUEUE_FIRST_POSTS: '1', COMMUNITY_POSTS_PER_MINUTE: '3' });
  admin = await newPlayer(adminPlatformId);
  categoryId = (await admin.post('/api/admin/community/categories', { slug: 'queue', name: 'Queue' })).body.id;
}, 60_000);
afterAll(async () => server?.close());

describe('the first-post queue', () => {
  it("holds a new user's first thread until an admin approves it", async () => {
    const newcomer = await newPlayer();
    const held = await newcomer.post('/api/community/threads', { category_id: categoryId, title: 'Hello everyone', body: 'my *first* post' });
    expect(held.status).toBe(202);
    expect(held.body).toEqual({ approval_id: expect.any(Number) });
    expect((await anonymous('/api/community/categories/queue/threads')).body.threads).toEqual([]);

    const pending = await admin.get('/api/admin/approvals?status=pending&kind=forum_post');
    const approval = pending.body.approvals.find((a: { id: number }) => a.id === held.body.approval_id);
    expect(approval).toMatchObject({ kind: 'forum_post', requested_by: newcomer.id, subject: { thread_title: 'Hello everyone', excerpt: 'my *first* post' } });

    expect((await admin.post(`/api/admin/approvals/${held.body.approval_id}/approve`, {})).status).toBe(200);
    const listed = await anonymous('/api/community/categories/queue/threads');
    expect(listed.body.threads).toMatchObject([{ id: approval.subject.thread_id, title: 'Hello everyone', post_count: 1 }]);
    const page = await anonymous(`/api/community/threads/${approval.subject.thread_id}`);
    expect(page.body.posts).toMatchObject([{ body: 'my *first* post', body_html: '<p>my <em>first</em> post</p>\n' }]);
  });

  it('lets the second post through at once', async () => {
    const newcomer = await newPlayer();
    const held = await newcomer.post('/api/community/threads', { category_id: categoryId, title: 'Queued one', body: 'x' });
    expect(held.status).toBe(202);
    const thread = (await admin.post('/api/community/threads', { category_id: categoryId, title: 'Open thread', body: 'admins never wait' })).body.thread;
    const reply = await newcomer.post(`/api/community/threads/${thread.id}/posts`, { body: 'second post' });
    expect(reply.status).toBe(201);
  });

  it('never shows a denied post', async () => {
    const newcomer = await newPlayer();
    const thread = (await admin.post('/api/community/threads', { category_id: categoryId, title: 'Denied replies', body: 'x' })).body.thread;
    const held = await newcomer.post(`/api/community/threads/${thread.id}/posts`, { body: 'spam link' });
    expect(held.status).toBe(202);
    expect((await admin.post(`/api/admin/approvals/${held.body.approval_id}/deny`, { reason: 'spam' })).status).toBe(200);
    expect((await anonymous(`/api/community/threads/${thread.id}`)).body.posts.map((p: { body: string }) => p.body)).toEqual(['x']);
    expect((await admin.post(`/api/admin/approvals/${held.body.approval_id}/approve`, {})).status).toBe(409);
  });
});

describe('the posting limit', () => {
  it('answers 429 with Retry-After once a user posted its limit this minute', async () => {
    const thread = (await admin.post('/api/community/threads', { category_id: categoryId, title: 'Busy thread', body: 'x' })).body.thread;
    const poster = await newPlayer();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await poster.post(`/api/community/threads/${thread.id}/posts`, { body: `post ${i}` })).status);
    expect(statuses).toEqual([202, 201, 201, 429]);
    const refused = await fetch(`${server.url}/api/community/threads/${thread.id}/posts`, {
      method: 'POST',
      headers: { cookie: poster.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'again' }),
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
