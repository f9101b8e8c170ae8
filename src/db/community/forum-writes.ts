import type { EntityManager } from '../orm';

/**
 * The forum's writes, each inside the caller's transaction (src/community/forum-service.ts holds
 * the row locks and the rules). A thread's post_count and last_post_at move in the same
 * transaction as the post that changes them, counting only posts that stand and are not queued.
 */
export const ForumWrites = {
  async insertThread(em: EntityManager, input: { categoryId: number; title: string; authorId: number; pending: boolean; at: Date }): Promise<number> {
    const [{ id }] = await em.execute<{ id: number }[]>(
      `insert into community_threads (category_id, title, author_id, pending, post_count, created_at, last_post_at) values (?, ?, ?, ?, 0, ?, ?) returning id`,
      [input.categoryId, input.title, input.authorId, input.pending, input.at, input.at],
    );
    return id;
  },

  async insertPost(em: EntityManager, input: { threadId: number; authorId: number; body: string; bodyHtml: string; pending: boolean; at: Date }): Promise<number> {
    const [{ id }] = await em.execute<{ id: number }[]>(
      `insert into community_posts (thread_id, author_id, body, body_html, pending, created_at) values (?, ?, ?, ?, ?, ?) returning id`,
      [input.threadId, input.authorId, input.body, input.bodyHtml, input.pending, input.at],
    );
    if (!input.pending) await ForumWrites.postAppeared(em, input.threadId, input.at);
    return id;
  },

  /** A post became visible (written, or approved out of the queue). */
  async postAppeared(em: EntityManager, threadId: number, at: Date): Promise<void> {
    await em.execute('update community_threads set post_count = post_count + 1, last_post_at = greatest(last_post_at, ?) where id = ?', [at, threadId]);
  },

  /** Keeps the text it replaces as one history row. */
  async editPost(em: EntityManager, input: { postId: number; oldBody: string; body: string; bodyHtml: string; editorId: number; at: Date }): Promise<void> {
    await em.execute('insert into community_post_edits (post_id, body, edited_by_id, edited_at) values (?, ?, ?, ?)', [input.postId, input.oldBody, input.editorId, input.at]);
    await em.execute('update community_posts set body = ?, body_html = ?, edited_at = ? where id = ?', [input.body, input.bodyHtml, input.at, input.postId]);
  },

  /** Soft delete: the row stays (reports and history point at it); a visible post leaves the count. */
  async deletePost(em: EntityManager, post: { id: number; threadId: number; pending: boolean }, at: Date): Promise<void> {
    await em.execute('update community_posts set deleted_at = ? where id = ?', [at, post.id]);
    if (!post.pending) await em.execute('update community_threads set post_count = post_count - 1 where id = ?', [post.threadId]);
  },

  async deleteThread(em: EntityManager, threadId: number, at: Date): Promise<void> {
    await em.execute('update community_threads set deleted_at = ? where id = ?', [at, threadId]);
  },

  async patchThread(em: EntityManager, threadId: number, patch: { pinned?: boolean; locked?: boolean; hidden?: boolean; categoryId?: number }): Promise<void> {
    await em.execute(
      `update community_threads set pinned = coalesce(?, pinned), locked = coalesce(?, locked), hidden = coalesce(?, hidden),
       category_id = coalesce(?, category_id) where id = ?`,
      [patch.pinned ?? null, patch.locked ?? null, patch.hidden ?? null, patch.categoryId ?? null, threadId],
    );
  },

  /** An approved queued post shows, with its thread if the post started it. */
  async releasePost(em: EntityManager, post: { id: number; threadId: number }, at: Date): Promise<void> {
    await em.execute('update community_posts set pending = false, approved_at = ? where id = ?', [at, post.id]);
    await em.execute('update community_threads set pending = false where id = ?', [post.threadId]);
    await ForumWrites.postAppeared(em, post.threadId, at);
  },

  /** The id of a thread's first post (the one whose deletion deletes the thread). */
  async firstPostId(em: EntityManager, threadId: number): Promise<number | null> {
    const [row] = await em.execute<{ id: number }[]>('select min(id) as id from community_posts where thread_id = ?', [threadId]);
    return row?.id ?? null;
  },
};
