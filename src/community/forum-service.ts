import type { Post, ThreadCreateBody, ThreadSummary } from '../../schema/community';
import type { ForumReads } from '../db/community/forum-reads';
import type { PostRow, ThreadRow } from '../db/community/forum-rows';
import { ForumWrites } from '../db/community/forum-writes';
import type { CategoryRepository } from '../db/community/category-repository';
import type { EmSource, EntityManager } from '../db/orm';
import { forbidden, notFound } from '../domain/domain-error';
import {
  canSeeThread,
  historyProblem,
  mustQueue,
  postChangeProblem,
  replyProblem,
  threadStartProblem,
  type ForumActor,
  type PostFacts,
  type ThreadFacts,
} from '../domain/community/forum-rules';
import { userOf, type Caller } from '../identity/caller';
import type { ForumPostQueue, ThreadPostPublisher } from './forum-ports';
import { toPost, toThreadSummary } from './forum-views';

export interface ForumServiceDeps {
  db: EmSource;
  reads: ForumReads;
  categories: CategoryRepository;
  /** True while the user has a ban in force: every forum write answers 403. */
  isBanned: (userId: number) => Promise<boolean>;
  /** Throws the 429 once the user has posted COMMUNITY_POSTS_PER_MINUTE times this minute. */
  postingLimit: (userId: number) => Promise<void>;
  /** COMMUNITY_QUEUE_FIRST_POSTS and where queued posts wait; 0 or no queue: nothing waits. */
  queueFirstPosts: number;
  queue: ForumPostQueue | null;
  publish: ThreadPostPublisher;
  clock: () => number;
}

export type Written<T> = { kind: 'shown'; value: T } | { kind: 'queued'; approvalId: number };

export const forumActor = (caller: Caller): ForumActor => {
  const user = userOf(caller);
  return { id: user.id, isAdmin: user.isAdmin };
};
export const readerOf = (caller: Caller): ForumActor | null => (caller.user ? forumActor(caller) : null);

export const threadFacts = (row: ThreadRow): ThreadFacts => ({
  authorId: row.author_id, locked: row.locked, hidden: row.hidden, pending: row.pending, deleted: row.deleted_at !== null,
});
export const postFacts = (row: PostRow): PostFacts => ({ authorId: row.author_id, deleted: row.deleted_at !== null, pending: row.pending });

const EXCERPT_LENGTH = 200;

/**
 * Threads and posts as their authors write them: each write is one transaction (rows locked,
 * rules of src/domain/community checked on what the lock returned, counts kept in step), the
 * markdown rendered and sanitised once before it, and the post pushed to the thread's
 * subscribers after it commits.
 */
/** markdown-it and sanitize-html are loaded with the first post written, not at start-up (about 20 MB resident). */
async function renderLazily(source: string): Promise<string> {
  return (await import('./render-markdown')).renderMarkdown(source);
}

export class ForumService {
  constructor(private readonly deps: ForumServiceDeps) {}

  async createThread(caller: Caller, body: ThreadCreateBody): Promise<Written<{ thread: ThreadSummary; post: Post }>> {
    const actor = await this.#writer(caller);
    const category = await this.deps.categories.byId(body.category_id);
    if (!category) throw notFound('category not found');
    const problem = threadStartProblem({ adminOnlyPosting: category.admin_only_posting }, actor);
    if (problem) throw problem;
    await this.deps.postingLimit(actor.id);
    const bodyHtml = await renderLazily(body.body);
    const at = new Date(this.deps.clock());
    const outcome = await this.deps.db.em().transactional(async (em) => {
      const pending = await this.#queued(em, actor);
      const threadId = await ForumWrites.insertThread(em, { categoryId: category.id, title: body.title, authorId: actor.id, pending, at });
      const postId = await ForumWrites.insertPost(em, { threadId, authorId: actor.id, body: body.body, bodyHtml, pending, at });
      if (pending) return { kind: 'queued' as const, approvalId: await this.#enqueue(em, { postId, threadId, title: body.title, body: body.body }, actor.id) };
      return { kind: 'shown' as const, thread: (await this.deps.reads.thread(threadId, em))!, post: (await this.deps.reads.post(postId, em))! };
    });
    if (outcome.kind === 'queued') return outcome;
    return { kind: 'shown', value: { thread: toThreadSummary(outcome.thread), post: toPost(outcome.post) } };
  }

  async reply(caller: Caller, threadId: number, body: string): Promise<Written<Post>> {
    const actor = await this.#writer(caller);
    await this.deps.postingLimit(actor.id);
    const bodyHtml = await renderLazily(body);
    const at = new Date(this.deps.clock());
    const outcome = await this.deps.db.em().transactional(async (em) => {
      // The thread row is locked: a lock or a delete committing now cannot let a reply slip past it.
      const thread = await this.deps.reads.thread(threadId, em, true);
      if (!thread) throw notFound('thread not found');
      const problem = replyProblem(threadFacts(thread), actor);
      if (problem) throw problem;
      const pending = await this.#queued(em, actor);
      const postId = await ForumWrites.insertPost(em, { threadId, authorId: actor.id, body, bodyHtml, pending, at });
      if (pending) return { kind: 'queued' as const, approvalId: await this.#enqueue(em, { postId, threadId, title: null, body }, actor.id) };
      return { kind: 'shown' as const, post: (await this.deps.reads.post(postId, em))! };
    });
    if (outcome.kind === 'queued') return outcome;
    const post = toPost(outcome.post);
    this.deps.publish(threadId, post);
    return { kind: 'shown', value: post };
  }

  async edit(caller: Caller, postId: number, body: string): Promise<Post> {
    const actor = await this.#writer(caller);
    const bodyHtml = await renderLazily(body);
    const at = new Date(this.deps.clock());
    const row = await this.deps.db.em().transactional(async (em) => {
      const { post } = await this.#lockedPost(em, postId, actor);
      await ForumWrites.editPost(em, { postId, oldBody: post.body, body, bodyHtml, editorId: actor.id, at });
      return (await this.deps.reads.post(postId, em))!;
    });
    return this.published(row);
  }

  /** Soft delete; deleting a thread's first post deletes the thread. */
  async delete(caller: Caller, postId: number): Promise<void> {
    const actor = await this.#writer(caller);
    const row = await this.deps.db.em().transactional((em) => this.deletePostIn(em, postId, actor));
    this.published(row);
  }

  /** The delete itself, for the author's route and for an admin resolving a report, in the caller's transaction. */
  async deletePostIn(em: EntityManager, postId: number, actor: ForumActor): Promise<PostRow> {
    const at = new Date(this.deps.clock());
    const { post, thread } = await this.#lockedPost(em, postId, actor);
    await ForumWrites.deletePost(em, { id: post.id, threadId: thread.id, pending: post.pending }, at);
    if ((await ForumWrites.firstPostId(em, thread.id)) === post.id) await ForumWrites.deleteThread(em, thread.id, at);
    return (await this.deps.reads.post(postId, em))!;
  }

  async history(caller: Caller, postId: number): Promise<Array<{ body: string; edited_at: string }>> {
    const post = await this.deps.reads.post(postId);
    if (!post) throw notFound('post not found');
    const problem = historyProblem(postFacts(post), forumActor(caller));
    if (problem) throw problem;
    return (await this.deps.reads.history(postId)).map((h) => ({ body: h.body, edited_at: new Date(h.edited_at).toISOString() }));
  }

  /** A thread's posts, for anyone who may see the thread (hidden ones: admins only, else 404). */
  async threadPage(caller: Caller, threadId: number, page: number, limit: number) {
    const thread = await this.visibleThread(readerOf(caller), threadId);
    const { rows, total } = await this.deps.reads.postsOfThread(threadId, page, limit);
    return { thread, posts: rows.map(toPost), total, page, limit };
  }

  async visibleThread(reader: ForumActor | null, threadId: number): Promise<ThreadSummary> {
    const thread = await this.deps.reads.thread(threadId);
    if (!thread || !canSeeThread(threadFacts(thread), reader)) throw notFound('thread not found');
    return toThreadSummary(thread);
  }

  async threadsInCategory(caller: Caller, slug: string, page: number, limit: number) {
    const category = await this.deps.categories.bySlug(slug);
    if (!category) throw notFound('category not found');
    const { rows, total } = await this.deps.reads.threadsInCategory(category.id, page, limit, readerOf(caller)?.isAdmin ?? false);
    return { threads: rows.map(toThreadSummary), total, page, limit };
  }

  async postsByUser(userId: number, page: number, limit: number) {
    const { rows, total } = await this.deps.reads.postsByAuthor(userId, page, limit);
    return { posts: rows.map(toPost), total, page, limit };
  }

  async search(q: string, page: number, limit: number) {
    const { rows, total } = await this.deps.reads.search(q, page, limit);
    return { threads: rows.map(toThreadSummary), total, page, limit };
  }

  async #writer(caller: Caller): Promise<ForumActor> {
    const actor = forumActor(caller);
    if (await this.deps.isBanned(actor.id)) throw forbidden('you are banned');
    return actor;
  }

  async #lockedPost(em: EntityManager, postId: number, actor: ForumActor): Promise<{ post: PostRow; thread: ThreadRow }> {
    const found = await this.deps.reads.post(postId, em);
    if (!found) throw notFound('post not found');
    // Thread first, then post: every forum write locks in this order, so two never wait on each other.
    const thread = (await this.deps.reads.thread(found.thread_id, em, true))!;
    const post = (await this.deps.reads.post(postId, em, true))!;
    const problem = postChangeProblem(postFacts(post), threadFacts(thread), actor);
    if (problem) throw problem;
    return { post, thread };
  }

  async #queued(em: EntityManager, actor: ForumActor): Promise<boolean> {
    if (!this.deps.queue || this.deps.queueFirstPosts === 0) return false;
    return mustQueue(await this.deps.reads.postsWrittenBy(actor.id, em), this.deps.queueFirstPosts, actor);
  }

  #enqueue(em: EntityManager, post: { postId: number; threadId: number; title: string | null; body: string }, requestedBy: number): Promise<number> {
    const subject = { post_id: post.postId, thread_id: post.threadId, thread_title: post.title, excerpt: post.body.slice(0, EXCERPT_LENGTH) };
    return this.deps.queue!.enqueue(em, subject, requestedBy);
  }

  /** Pushes a committed post change to the thread's subscribers, and answers the post. */
  published(row: PostRow): Post {
    const post = toPost(row);
    // A queued post has no readers yet: its change is theirs to see once it is approved.
    if (!row.pending) this.deps.publish(row.thread_id, post);
    return post;
  }
}
