import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LobbyDetail, LobbySummary } from '../../schema/lobby';
import type { ThreadPostPush } from '../../schema/community';
import { ThreadPostFeed } from '../../src/community/thread-post-feed';
import { startPublicCacheInvalidation } from '../../src/engine/public-cache-invalidation';
import { connectRedisLiveStore } from '../../src/live/redis-live-store';
import { TeamFeed } from '../../src/teams/team-feed';
import { startTournamentFeed, TOURNAMENT_FEED_CHANNEL, type TournamentUpdate } from '../../src/tournaments/tournament-feed';
import { lobbyAt, Player } from '../api/lobby/lobby-client';
import { startOwnRedis, type OwnRedis } from '../support/own-redis';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { describeOnTwoInstances, startTwoInstances, type Instance, type TwoInstances } from '../support/two-instances';
import { createLobby, lobbyCommand } from '../realtime/support/rest-client';
import { closeAllClients, connect, nextEvent, request } from '../realtime/support/socket-client';
import { freshUser } from '../realtime/support/users';

/*
 * Redis closes a subscriber connection whose unread messages pass its output-buffer limit (a
 * fan-out instance far behind the instance taking the commands), as it closes every connection
 * when it restarts; node-redis connects and subscribes again, but what was published meanwhile
 * is gone. The lobby that lost an update may never send another, so nothing may wait for one.
 */
/** A post change of thread `threadId`, as the feed carries it. */
const postPush = (threadId: number, postId: number, body: string): ThreadPostPush => ({
  thread_id: threadId,
  post: { id: postId, thread_id: threadId, author: { id: 1, platform_id: '76561198000000001', username: 'author', avatar_url: null, elo: 1000, name_color: null, profile_frame: null }, body, body_html: `<p>${body}</p>`, created_at: '2026-11-29T19:00:00.000Z', edited_at: null, deleted: false },
});

const withSignal = () => {
  let signal!: () => void;
  const signalled = new Promise<void>((resolve) => (signal = resolve));
  return { signal, signalled };
};

describe('a live store whose Redis connections are cut or dropped', () => {
  let redis: OwnRedis;

  beforeAll(async () => {
    redis = await startOwnRedis();
  }, 30_000);
  afterAll(async () => {
    await redis?.stop();
  });

  it('answers again soon after a cut in which Redis was reachable but closed each connection at once', async () => {
    // A proxy or load balancer in front of Redis accepts and closes while its target is down:
    // node-redis before 5.11 took a connection closed during its handshake for a ready one, for good.
    const proxy = await startTcpProxy(redis.url);
    const store = await connectRedisLiveStore({ url: proxy.url, prefix: 'cut:', onError: () => undefined });
    try {
      proxy.refuse();
      await new Promise((resolve) => setTimeout(resolve, 20));
      proxy.restore();

      await expect.poll(() => store.get('anything').then(() => 'answered', () => 'unavailable'), { timeout: 2_000 }).toBe('answered');
    } finally {
      await store.close();
      await proxy.close();
    }
  });

  it('reports a dropped subscription to its subscriber once it is in place again, and delivers what is published after', async () => {
    const store = await connectRedisLiveStore({ url: redis.url, prefix: 'drop:', onError: () => undefined });
    try {
      const received: string[] = [];
      const { signal: interrupted, signalled: restored } = withSignal();
      await store.subscribe('news', (message) => received.push(message), interrupted);

      await redis.command('CLIENT', 'KILL', 'TYPE', 'pubsub');
      await restored;
      await store.publish('news', 'after the loss');

      await expect.poll(() => received).toEqual(['after the loss']);
    } finally {
      await store.close();
    }
  });

  it('makes the team feed send the teams that moved while it was cut off', async () => {
    const store = await connectRedisLiveStore({ url: redis.url, prefix: 'team-drop:', onError: () => undefined });
    const sent: Array<[number, number]> = [];
    let version = 1;
    const feed = new TeamFeed<string>({
      live: store,
      read: async (teamId) => ({ version, team: `team ${teamId} v${version}` }),
      emit: (teamId, at) => sent.push([teamId, at]),
      onError: () => undefined,
    });
    try {
      await feed.start();
      feed.changed(7);
      await expect.poll(() => sent).toEqual([[7, 1]]);

      await redis.command('CLIENT', 'KILL', 'TYPE', 'pubsub');
      version = 2; // its announcement is the one lost

      await expect.poll(() => sent).toEqual([[7, 1], [7, 2]]);
    } finally {
      await feed.close();
      await store.close();
    }
  });

  it('makes the tournament feed send the tournaments that moved while it was cut off', async () => {
    const store = await connectRedisLiveStore({ url: redis.url, prefix: 'tournament-drop:', onError: () => undefined });
    const sent: number[] = [];
    let version = 1;
    const now = (id: number): TournamentUpdate => ({ id, version, tournament: {}, bracket: {} });
    const stop = await startTournamentFeed(store, (_room, _event, update) => sent.push(update.version), { read: async (id) => now(id), onError: () => undefined });
    try {
      await store.publish(TOURNAMENT_FEED_CHANNEL, JSON.stringify(now(3)));
      await expect.poll(() => sent).toEqual([1]);

      await redis.command('CLIENT', 'KILL', 'TYPE', 'pubsub');
      version = 2;

      await expect.poll(() => sent).toEqual([1, 2]);
    } finally {
      await stop();
      await store.close();
    }
  });

  it('makes the thread post feed send the watched threads\' posts that changed since it last heard from the feed', async () => {
    const store = await connectRedisLiveStore({ url: redis.url, prefix: 'posts-drop:', onError: () => undefined });
    let clock = 1_000_000;
    const asked: Array<[number[], number]> = [];
    const delivered: number[] = [];
    const feed = new ThreadPostFeed({
      live: store,
      watchedThreads: () => [4, 9],
      changedSince: async (threadIds, since) => (asked.push([threadIds, since]), [postPush(9, 31, 'written during the cut')]),
      deliver: (push) => delivered.push(push.post.id),
      clock: () => clock,
      onError: () => undefined,
    });
    try {
      await feed.start();
      feed.changed(postPush(4, 30, 'before the cut'));
      await expect.poll(() => delivered).toEqual([30]);
      const heardAt = clock;
      clock += 60_000;

      await redis.command('CLIENT', 'KILL', 'TYPE', 'pubsub');

      await expect.poll(() => delivered).toEqual([30, 31]);
      expect(asked).toHaveLength(1);
      expect(asked[0][0]).toEqual([4, 9]);
      expect(asked[0][1]).toBeLessThanOrEqual(heardAt);
    } finally {
      await feed.close();
      await store.close();
    }
  });

  it('keeps a post change that arrives on the feed while the posts are read again over the read\'s older copy', async () => {
    const store = await connectRedisLiveStore({ url: redis.url, prefix: 'posts-race:', onError: () => undefined });
    const delivered: string[] = [];
    let answerRead!: (pushes: ThreadPostPush[]) => void;
    const { signal: readStarted, signalled: reading } = withSignal();
    const feed = new ThreadPostFeed({
      live: store,
      watchedThreads: () => [4],
      changedSince: () => {
        readStarted();
        return new Promise((resolve) => (answerRead = resolve));
      },
      deliver: (push) => delivered.push(push.post.body),
      clock: () => 1_000_000,
      onError: () => undefined,
    });
    try {
      await feed.start();
      await redis.command('CLIENT', 'KILL', 'TYPE', 'pubsub');
      await reading;
      feed.changed(postPush(4, 30, 'edited after the read began'));
      await expect.poll(() => delivered).toEqual(['edited after the read began']);

      answerRead([postPush(4, 30, 'as the read found it'), postPush(4, 29, 'another post')]);

      await expect.poll(() => delivered).toEqual(['edited after the read began', 'another post']);
    } finally {
      await feed.close();
      await store.close();
    }
  });

  it('makes the public cache drop every answer, since another instance\'s invalidation may be lost', async () => {
    const store = await connectRedisLiveStore({ url: redis.url, prefix: 'cache-drop:', onError: () => undefined });
    try {
      const { signal, signalled: droppedAll } = withSignal();
      const invalidation = await startPublicCacheInvalidation(store, { invalidate: () => undefined, invalidateAll: signal }, () => undefined);

      await redis.command('CLIENT', 'KILL', 'TYPE', 'pubsub');

      await droppedAll;
      await invalidation.stop();
    } finally {
      await store.close();
    }
  });
});

describeOnTwoInstances('a lobby watcher whose instance lost the lobby feed', () => {
  const ADMIN = '76561198000025017';
  let proxy: TcpProxy;
  let instances: TwoInstances;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    // A reaches Redis through a proxy of the test's own, B directly: A alone can be cut off.
    proxy = await startTcpProxy(process.env.REDIS_URL!);
    instances = await startTwoInstances({ ADMIN_PLATFORM_IDS: ADMIN }, [{ REDIS_URL: proxy.url }]);
    [a, b] = instances.servers;
  }, 90_000);
  afterAll(async () => {
    closeAllClients();
    await instances?.close();
    await proxy?.close();
  });

  it('gets the update published while it was cut off, with no later change to show the gap', async () => {
    const host = await freshUser(b);
    const lobby = await createLobby(b.url, host.cookie);
    const watcher = await connect(a.url);
    const { lobby: snapshot } = await request<{ lobby: LobbyDetail }>(watcher, 'lobby:subscribe', { code: lobby.code });
    const update = nextEvent(watcher, 'lobby:update', (payload) => payload.version > snapshot.version, 10_000);

    proxy.refuse();
    const voted = await lobbyCommand(b.url, lobby.code, 'vote-map', host.cookie, { map: snapshot.map_pool[0] });
    proxy.restore();

    expect(voted.status).toBe(200);
    const current = await lobbyAt(b.url, lobby.code);
    expect(current.version).toBe(snapshot.version + 1);
    expect(await update).toMatchObject({ code: lobby.code, version: current.version, lobby: { votes: current.votes } });
  });

  it('gets the open lobby list as it is after a cut in which a lobby opened, with no later change to show it', async () => {
    const watcher = await connect(a.url);
    const onB = await connect(b.url);
    const { lobbies: before } = await request<{ lobbies: LobbySummary[] }>(watcher, 'lobbies:subscribe');
    await request(onB, 'lobbies:subscribe');
    const host = await freshUser(b);
    const listing = (code: string) => (payload: { lobbies: LobbySummary[] }) => payload.lobbies.some((each) => each.code === code);

    proxy.refuse();
    const opened = await createLobby(b.url, host.cookie);
    // B's own watcher has it: the list went out on the feed while A was cut off.
    await nextEvent(onB, 'lobbies:update', listing(opened.code), 10_000);
    const listed = nextEvent(watcher, 'lobbies:update', listing(opened.code), 10_000);
    proxy.restore();

    expect(before.map((each) => each.code)).not.toContain(opened.code);
    await listed;
  });

  it('gets a reply written in its thread while it was cut off, with no later post to show it', async () => {
    const login = await b.login(ADMIN);
    const admin = new Player(b.url, login.cookie, login.user);
    const category = (await admin.post('/api/admin/community/categories', { slug: `cut-${Date.now()}`, name: 'Cut' })).body;
    const threadId = (await admin.post('/api/community/threads', { category_id: category.id, title: 'A thread across a cut', body: 'x' })).body.thread.id;
    const watcher = await connect(a.url);
    const onB = await connect(b.url);
    await request(watcher, 'thread:subscribe', { id: threadId });
    await request(onB, 'thread:subscribe', { id: threadId });

    proxy.refuse();
    const reply = await admin.post(`/api/community/threads/${threadId}/posts`, { body: 'during the cut' });
    // B's own watcher has it: the post went out on the feed while A was cut off.
    await nextEvent(onB, 'thread:post', (push) => push.post.body === 'during the cut', 10_000);
    const pushed = nextEvent(watcher, 'thread:post', (push) => push.post.body === 'during the cut', 10_000);
    proxy.restore();

    expect(reply.status).toBe(201);
    expect((await pushed).post).toEqual(reply.body);
  });
});
