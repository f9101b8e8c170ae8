import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnTwoInstances, startTwoInstances, type TwoInstances } from '../../support/two-instances';
import { closeAllClients, connect, nextEvent, request } from '../../realtime/support/socket-client';
import { nextPlatformId, Player } from '../lobby/lobby-client';

/*
 * Two server processes sharing one Redis and one Postgres: the posting limit is one count per
 * user across both, and a reply written on one reaches a socket subscribed on the other.
 */
describeOnTwoInstances('the forum on two server processes sharing Redis and Postgres', () => {
  const adminPlatformId = '76561198000025003';
  let instances: TwoInstances;
  let admin: Player;
  let threadId: number;

  beforeAll(async () => {
    instances = await startTwoInstances({ ADMIN_PLATFORM_IDS: adminPlatformId, COMMUNITY_POSTS_PER_MINUTE: '4' });
    const login = await instances.servers[0].login(adminPlatformId);
    admin = new Player(instances.servers[0].url, login.cookie, login.user);
    const category = (await admin.post('/api/admin/community/categories', { slug: 'shared', name: 'Shared' })).body;
    threadId = (await admin.post('/api/community/threads', { category_id: category.id, title: 'Shared thread', body: 'x' })).body.thread.id;
  }, 180_000);

  afterAll(async () => {
    closeAllClients();
    await instances?.close();
  });

  it('counts one posting limit per user across both instances', async () => {
    const login = await instances.servers[0].login(nextPlatformId());
    const poster = new Player(instances.servers[0].url, login.cookie, login.user);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => poster.on(instances.servers[i % 2].url).post(`/api/community/threads/${threadId}/posts`, { body: `post ${i}` })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429, 429, 429]);
    const page = await admin.get(`/api/community/threads/${threadId}?limit=100`);
    expect(page.body.posts.filter((p: { author: { id: number } }) => p.author.id === poster.id)).toHaveLength(4);
  });

  it('pushes a reply written on one instance to a socket subscribed on the other', async () => {
    const login = await instances.servers[0].login(nextPlatformId());
    const socket = await connect(instances.servers[1].url, { cookie: login.cookie });
    expect(await request(socket, 'thread:subscribe', { id: threadId })).toMatchObject({ thread: { id: threadId } });
    const pushed = nextEvent(socket, 'thread:post', (p) => p.post.body === 'across instances');
    const reply = await admin.post(`/api/community/threads/${threadId}/posts`, { body: 'across instances' });
    expect(reply.status).toBe(201);
    expect((await pushed).post).toEqual(reply.body);
  });
});
