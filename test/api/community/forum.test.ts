import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import type { Player } from '../lobby/lobby-client';
import { anonymousGet, forumUser } from './forum-client';
import { closeAllClients, connect, nextEvent, request } from '../../realtime/support/socket-client';

/**
 * The forum over real HTTP and socket.io: categories an admin manages, threads and posts with
 * safe markdown, edits with history, soft deletes, moderation of threads and reports, a user's
 * posts, search, and a reply pushed to a subscribed socket.
 */
const adminPlatformId = '76561198000025001';
let server: TestServerWithLogin;
let admin: Player;
let alice: Player;
let bob: Player;
let general: { id: number; slug: string };

const newPlayer = (platformId?: string) => forumUser(server, platformId);
const anonymous = (path: string) => anonymousGet(server, path);
let slugs = 0;
async function newCategory(extra: Record<string, unknown> = {}) {
  const created = await admin.post('/api/admin/community/categories', { slug: `cat-${++slugs}`, name: `Category ${slugs}`, ...extra });
  expect(created.status).toBe(201);
  return created.body as { id: number; slug: string };
}
async function newThread(by: Player, categoryId: number, title = 'A thread about scrims', body = 'First **post**') {
  const created = await by.post('/api/community/threads', { category_id: categoryId, title, body });
  expect(created.status).toBe(201);
  return created.body as { thread: { id: number }; post: { id: number } };
}

beforeAll(async () => {
  server = await startTestServerWithLogin({ ADMIN_PLATFORM_IDS: adminPlatformId, COMMUNITY_POSTS_PER_MINUTE: '1000' });
  admin = await newPlayer(adminPlatformId);
  alice = await newPlayer();
  bob = await newPlayer();
  general = await newCategory({ slug: 'general', name: 'General', description: 'Anything' });
}, 60_000);
afterAll(async () => {
  closeAllClients();
  await server?.close();
});

describe('categories', () => {
  it('are created by admins only', async () => {
    expect((await alice.post('/api/admin/community/categories', { slug: 'nope', name: 'Nope' })).status).toBe(403);
    const listed = (await anonymous('/api/community/categories')).body as Array<{ slug: string; thread_count: number }>;
    expect(listed.find((c) => c.slug === 'general')).toMatchObject({ name: 'General', description: 'Anything', admin_only_posting: false });
  });

  it('refuse a slug already taken with 409', async () => {
    expect((await admin.post('/api/admin/community/categories', { slug: 'general', name: 'Again' })).status).toBe(409);
  });

  it('change through PATCH and write an audit row', async () => {
    const category = await newCategory();
    const patched = await admin.send('PATCH', `/api/admin/community/categories/${category.id}`, { name: 'Renamed', position: 7 });
    expect(patched).toMatchObject({ status: 200, body: { id: category.id, name: 'Renamed', position: 7 } });
    const audit = await admin.get(`/api/admin/audit?target_type=community_category&target_id=${category.id}`);
    expect(audit.body.entries.map((e: { action: string }) => e.action)).toEqual(['community.category.update', 'community.category.create']);
  });

  it('cannot be deleted while they hold threads, and can once empty', async () => {
    const full = await newCategory();
    await newThread(alice, full.id);
    expect((await admin.send('DELETE', `/api/admin/community/categories/${full.id}`)).status).toBe(409);
    const empty = await newCategory();
    expect((await admin.send('DELETE', `/api/admin/community/categories/${empty.id}`)).status).toBe(204);
    expect((await admin.send('DELETE', `/api/admin/community/categories/${empty.id}`)).status).toBe(404);
  });

  it('with admin-only posting refuse a thread from a user with 403', async () => {
    const news = await newCategory({ admin_only_posting: true });
    expect((await alice.post('/api/community/threads', { category_id: news.id, title: 'Not mine', body: 'x' })).status).toBe(403);
    await newThread(admin, news.id, 'Season 3 starts');
  });
});

describe('threads and posts', () => {
  it('store the markdown as written beside its sanitised HTML', async () => {
    const body = '**Hi** [site](https://example.org) [bad](javascript:alert(1)) <script>alert(1)</script>';
    const { thread, post } = await newThread(alice, general.id, '  Looking for a medic  ', body);
    const page = await anonymous(`/api/community/threads/${thread.id}`);
    expect(page.status).toBe(200);
    expect(page.body.thread).toMatchObject({ title: '  Looking for a medic  ', author: { id: alice.id }, post_count: 1, pinned: false, locked: false });
    expect(page.body.posts[0]).toMatchObject({ id: post.id, body, deleted: false, edited_at: null });
    const html: string = page.body.posts[0].body_html;
    expect(html).toContain('<strong>Hi</strong>');
    expect(html).toContain('<a href="https://example.org" rel="nofollow noopener">site</a>');
    expect(html).not.toMatch(/<script|href="javascript/i);
  });

  it('refuse a title under 3 characters with 400 naming the field', async () => {
    const answer = await alice.post('/api/community/threads', { category_id: general.id, title: 'ab', body: 'x' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/title/);
  });

  it('page a thread with replies in order', async () => {
    const { thread } = await newThread(alice, general.id);
    for (let i = 1; i <= 4; i++) expect((await bob.post(`/api/community/threads/${thread.id}/posts`, { body: `reply ${i}` })).status).toBe(201);
    const second = await anonymous(`/api/community/threads/${thread.id}?page=2&limit=2`);
    expect(second.body).toMatchObject({ total: 5, page: 2, limit: 2 });
    expect(second.body.posts.map((p: { body: string }) => p.body)).toEqual(['reply 2', 'reply 3']);
    expect(second.body.thread.post_count).toBe(5);
    expect((await anonymous(`/api/community/threads/${thread.id}?limit=101`)).status).toBe(400);
  });

  it('list a category pinned first, then newest activity', async () => {
    const category = await newCategory();
    const old = await newThread(alice, category.id, 'Oldest thread');
    const pinned = await newThread(alice, category.id, 'Pinned rules');
    const fresh = await newThread(bob, category.id, 'Fresh thread');
    await admin.send('PATCH', `/api/admin/community/threads/${pinned.thread.id}`, { pinned: true });
    await bob.post(`/api/community/threads/${old.thread.id}/posts`, { body: 'bump' });
    const listed = await anonymous(`/api/community/categories/${category.slug}/threads`);
    expect(listed.body.threads.map((t: { id: number }) => t.id)).toEqual([pinned.thread.id, old.thread.id, fresh.thread.id]);
    expect(listed.body).toMatchObject({ total: 3, page: 1, limit: 20 });
  });

  it('keep the old text when a post is edited, readable by its author only', async () => {
    const { post } = await newThread(alice, general.id, 'Edited thread', 'first text');
    const edited = await alice.send('PATCH', `/api/community/posts/${post.id}`, { body: 'second _text_' });
    expect(edited.body).toMatchObject({ body: 'second _text_', body_html: '<p>second <em>text</em></p>\n' });
    expect(edited.body.edited_at).not.toBeNull();
    expect((await bob.send('PATCH', `/api/community/posts/${post.id}`, { body: 'hijack' })).status).toBe(403);
    const history = await alice.get(`/api/community/posts/${post.id}/history`);
    expect(history.body).toEqual([{ body: 'first text', edited_at: edited.body.edited_at }]);
    expect((await bob.get(`/api/community/posts/${post.id}/history`)).status).toBe(403);
  });

  it('soft-delete a reply, keeping its place without its text', async () => {
    const { thread } = await newThread(alice, general.id);
    const reply = await bob.post(`/api/community/threads/${thread.id}/posts`, { body: 'oops' });
    expect((await alice.send('DELETE', `/api/community/posts/${reply.body.id}`)).status).toBe(403);
    expect((await bob.send('DELETE', `/api/community/posts/${reply.body.id}`)).status).toBe(204);
    const page = await anonymous(`/api/community/threads/${thread.id}`);
    expect(page.body.posts[1]).toMatchObject({ id: reply.body.id, body: '', body_html: '', deleted: true });
    expect(page.body.thread.post_count).toBe(1);
  });

  it('delete the thread with its first post', async () => {
    const { thread, post } = await newThread(alice, general.id);
    expect((await alice.send('DELETE', `/api/community/posts/${post.id}`)).status).toBe(204);
    expect((await anonymous(`/api/community/threads/${thread.id}`)).status).toBe(404);
  });
});

describe('moderation', () => {
  it('locks a thread against replies but not against admins', async () => {
    const { thread } = await newThread(alice, general.id);
    const locked = await admin.send('PATCH', `/api/admin/community/threads/${thread.id}`, { locked: true });
    expect(locked.body.locked).toBe(true);
    expect((await bob.post(`/api/community/threads/${thread.id}/posts`, { body: 'late' })).status).toBe(409);
    expect((await admin.post(`/api/community/threads/${thread.id}/posts`, { body: 'closing' })).status).toBe(201);
  });

  it('hides a thread from everyone but admins', async () => {
    const { thread } = await newThread(alice, general.id);
    await admin.send('PATCH', `/api/admin/community/threads/${thread.id}`, { hidden: true });
    expect((await anonymous(`/api/community/threads/${thread.id}`)).status).toBe(404);
    expect((await bob.get(`/api/community/threads/${thread.id}`)).status).toBe(404);
    expect((await admin.get(`/api/community/threads/${thread.id}`)).status).toBe(200);
  });

  it('moves a thread to another category', async () => {
    const target = await newCategory();
    const { thread } = await newThread(alice, general.id);
    const moved = await admin.send('PATCH', `/api/admin/community/threads/${thread.id}`, { category_id: target.id });
    expect(moved.body.category_id).toBe(target.id);
    const listed = await anonymous(`/api/community/categories/${target.slug}/threads`);
    expect(listed.body.threads.map((t: { id: number }) => t.id)).toEqual([thread.id]);
  });

  it('resolves a report by deleting the post, once', async () => {
    const { thread } = await newThread(alice, general.id);
    const spam = await bob.post(`/api/community/threads/${thread.id}/posts`, { body: 'buy cheap keys' });
    const report = await alice.post(`/api/community/posts/${spam.body.id}/report`, { reason: 'spam' });
    expect(report).toMatchObject({ status: 201, body: { status: 'open' } });
    expect((await alice.post(`/api/community/posts/${spam.body.id}/report`, { reason: 'spam again' })).status).toBe(409);
    const open = await admin.get('/api/admin/community/reports');
    expect(open.body.reports.find((r: { id: number }) => r.id === report.body.id)).toMatchObject({ post_id: spam.body.id, reporter_id: alice.id, reason: 'spam' });
    const resolved = await admin.post(`/api/admin/community/reports/${report.body.id}/resolve`, { action: 'delete_post', reason: 'spam' });
    expect(resolved.body).toMatchObject({ status: 'post_deleted', resolved_by: admin.id });
    expect((await admin.post(`/api/admin/community/reports/${report.body.id}/resolve`, { action: 'dismiss', reason: 'x' })).status).toBe(409);
    const page = await anonymous(`/api/community/threads/${thread.id}`);
    expect(page.body.posts[1]).toMatchObject({ id: spam.body.id, deleted: true });
  });

  it('resolves a report by banning the author, who then gets 403 on posting', async () => {
    const troll = await newPlayer();
    const { post } = await newThread(troll, general.id, 'Trolling thread');
    const report = await alice.post(`/api/community/posts/${post.id}/report`, { reason: 'abuse' });
    const resolved = await admin.post(`/api/admin/community/reports/${report.body.id}/resolve`, { action: 'ban_author', reason: 'abuse' });
    expect(resolved.body.status).toBe('author_banned');
    const bans = await admin.get(`/api/admin/bans?user_id=${troll.id}&status=active`);
    expect(bans.body.bans).toHaveLength(1);
    expect((await troll.post('/api/community/threads', { category_id: general.id, title: 'Back again', body: 'x' })).status).toBe(403);
  });

  it('dismisses a report, leaving the post', async () => {
    const { thread, post } = await newThread(alice, general.id);
    const report = await bob.post(`/api/community/posts/${post.id}/report`, { reason: 'I disagree' });
    const resolved = await admin.post(`/api/admin/community/reports/${report.body.id}/resolve`, { action: 'dismiss', reason: 'not a rule break' });
    expect(resolved.body.status).toBe('dismissed');
    expect((await anonymous(`/api/community/threads/${thread.id}`)).body.posts[0]).toMatchObject({ id: post.id, deleted: false });
  });
});

describe('reading', () => {
  it("pages a user's posts newest first", async () => {
    const writer = await newPlayer();
    const { thread } = await newThread(writer, general.id, 'Profile thread', 'one');
    await writer.post(`/api/community/threads/${thread.id}/posts`, { body: 'two' });
    await writer.post(`/api/community/threads/${thread.id}/posts`, { body: 'three' });
    const first = await anonymous(`/api/users/${writer.id}/posts?limit=2`);
    expect(first.body).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(first.body.posts.map((p: { body: string }) => p.body)).toEqual(['three', 'two']);
  });

  it('finds threads by title and by body with full-text search', async () => {
    const { thread: byTitle } = await newThread(alice, general.id, 'Ultiduo ladder signups', 'plain');
    const { thread: byBody } = await newThread(bob, general.id, 'Something else', 'who wants to play ultiduo tonight');
    const found = await anonymous('/api/community/search?q=ultiduo');
    const ids = found.body.threads.map((t: { id: number }) => t.id);
    expect(ids).toEqual(expect.arrayContaining([byTitle.id, byBody.id]));
    expect(ids[0]).toBe(byTitle.id);
    expect((await anonymous('/api/community/search?q=zzzqqq')).body).toMatchObject({ threads: [], total: 0 });
    expect((await anonymous('/api/community/search')).status).toBe(400);
  });
});

describe('realtime', () => {
  it('pushes a reply to a socket subscribed to the thread', async () => {
    const { thread } = await newThread(alice, general.id, 'Live thread');
    const socket = await connect(server.url, { cookie: bob.cookie });
    const ack = await request<{ thread: { id: number; title: string } }>(socket, 'thread:subscribe', { id: thread.id });
    expect(ack.thread).toMatchObject({ id: thread.id, title: 'Live thread' });
    const pushed = nextEvent(socket, 'thread:post', (p) => p.thread_id === thread.id);
    const reply = await alice.post(`/api/community/threads/${thread.id}/posts`, { body: 'live *reply*' });
    expect(await pushed).toEqual({ thread_id: thread.id, post: reply.body });
  });

  it('pushes an edit and a delete to a socket subscribed to the thread', async () => {
    const { thread } = await newThread(alice, general.id, 'Edited live');
    const reply = await bob.post(`/api/community/threads/${thread.id}/posts`, { body: 'before' });
    const socket = await connect(server.url);
    await request(socket, 'thread:subscribe', { id: thread.id });
    const edited = nextEvent(socket, 'thread:post', (p) => p.post.id === reply.body.id && p.post.body === 'after');
    expect((await bob.send('PATCH', `/api/community/posts/${reply.body.id}`, { body: 'after' })).status).toBe(200);
    expect((await edited).post.edited_at).not.toBeNull();
    const deleted = nextEvent(socket, 'thread:post', (p) => p.post.id === reply.body.id && p.post.deleted);
    expect((await bob.send('DELETE', `/api/community/posts/${reply.body.id}`)).status).toBe(204);
    expect((await deleted).post).toMatchObject({ body: '', body_html: '', deleted: true });
  });

  it('answers 404 to a subscription to a hidden thread', async () => {
    const { thread } = await newThread(alice, general.id);
    await admin.send('PATCH', `/api/admin/community/threads/${thread.id}`, { hidden: true });
    const socket = await connect(server.url, { cookie: bob.cookie });
    expect(await request(socket, 'thread:subscribe', { id: thread.id })).toEqual({ error: 'thread not found', status: 404 });
  });
});
