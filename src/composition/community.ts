import type { Logger } from 'pino';
import type { DoorRoutes } from '../door/door-routes';
import type { Config } from '../config/config';
import { deliverThreadPost, threadFeed, THREAD_ROOM_PREFIX } from '../../realtime/thread-socket-handlers';
import type { SocketServer } from '../../realtime/socket-server';
import { refuseWithHttpError } from '../../rest/middleware/credentials';
import { toHttpError } from '../../rest/error-mapping';
import type { Authenticate } from '../../rest/route-binder';
import { communityRouter } from '../../rest/routes/community-routes';
import type { BanAuthor } from '../community/forum-ports';
import { forumPostApproval, forumPostQueue } from '../approvals/forum-post-approval';
import type { ApprovalsArea } from './approvals';
import { ForumModeration } from '../community/forum-moderation';
import { ForumService } from '../community/forum-service';
import { toPost } from '../community/forum-views';
import type { Post } from '../../schema/community';
import { PostingLimit } from '../community/posting-limit';
import { ThreadPostFeed } from '../community/thread-post-feed';
import type { Repositories } from './repositories';
import { CategoryRepository } from '../db/community/category-repository';
import { ForumReads } from '../db/community/forum-reads';
import { ReportRepository } from '../db/community/report-repository';
import type { Database, EntityManager } from '../db/orm';
import type { UserRecord } from '../db/user-record';
import type { Caller } from '../identity/caller';
import type { LiveStore } from '../live/live-store';

export interface CommunityInput {
  config: Config;
  db: Database;
  repos: Pick<Repositories, 'bans'>;
  live: LiveStore;
  sockets: Pick<SocketServer, 'deliverToRoom' | 'serveFeed' | 'watchedRooms'>;
  users: { findById(id: number): Promise<UserRecord | null> };
  authenticate: Authenticate<Caller>;
  banAuthor: BanAuthor;
  /** The approvals module, where kind forum_post is registered (the first-post queue). */
  approvals: ApprovalsArea;
  clock: () => number;
  logger: Logger;
}

export interface Community {
  router: DoorRoutes;
  forum: ForumService;
  /** Stops listening for other instances' post changes; call before the live store closes. */
  close(): Promise<void>;
}

/** The forum assembled: repositories, services, the REST router, the thread socket events and the cross-instance push. */
export async function assembleCommunity(input: CommunityInput): Promise<Community> {
  const { db, live, clock, logger, config } = input;
  const reads = new ForumReads(db);
  const categories = new CategoryRepository(db);
  // On a transaction's own connection when given one: embedded PGlite serves one connection at a time.
  const isBanned = async (userId: number, em?: EntityManager) =>
    (await input.repos.bans.activeBan(userId, new Date(clock()), em)) !== null;
  const limit = new PostingLimit(live, clock, config.community.postsPerMinute, refuseWithHttpError);
  const posts = new ThreadPostFeed({
    live,
    watchedThreads: () => input.sockets.watchedRooms(THREAD_ROOM_PREFIX).map((room) => Number(room.slice(THREAD_ROOM_PREFIX.length))),
    changedSince: async (threadIds, since) =>
      (await reads.postsChangedSince(threadIds, new Date(since))).map((row) => ({ thread_id: row.thread_id, post: toPost(row) })),
    deliver: (push) => deliverThreadPost(input.sockets, push),
    clock,
    onError: (error) => logger.error({ err: error }, 'thread posts feed: a post change could not be published, or the changes lost with the subscription read again'),
  });
  const publish = (threadId: number, post: Post) => posts.changed({ thread_id: threadId, post });
  const kind = forumPostApproval({
    reads,
    isBanned,
    released: (postId) => {
      reads.post(postId).then(
        (row) => row && publish(row.thread_id, toPost(row)),
        (error: unknown) => logger.error({ err: error, postId }, 'pushing an approved post failed'),
      );
    },
  });
  input.approvals.registry.register(kind);
  const forum = new ForumService({
    db, reads, categories, isBanned, clock,
    postingLimit: (userId) => limit.hit(userId),
    queueFirstPosts: config.community.queueFirstPosts,
    queue: forumPostQueue(input.approvals.approvals, kind),
    publish,
  });
  const moderation = new ForumModeration({ db, reads, categories, reports: new ReportRepository(db), forum, banAuthor: input.banAuthor, isBanned, clock });
  await posts.start();
  input.sockets.serveFeed(
    threadFeed(async (userId, threadId) => {
      const user = userId === null ? null : await input.users.findById(userId);
      return forum.visibleThread(user ? { id: user.id, isAdmin: user.isAdmin } : null, threadId);
    }),
  );
  const router = communityRouter({ authenticate: input.authenticate, forum, moderation, categories });
  return { router, forum, close: () => posts.close() };
}
