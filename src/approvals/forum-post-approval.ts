import { ForumPostSubject } from '../../schema/community';
import type { ForumPostQueue } from '../community/forum-ports';
import type { ForumReads } from '../db/community/forum-reads';
import type { EntityManager } from '../db/orm';
import { ForumWrites } from '../db/community/forum-writes';
import { conflict } from '../domain/domain-error';
import type { ApprovalKind } from './approval-kind';
import type { Approvals } from './approvals';

export interface ForumPostApprovalDeps {
  reads: ForumReads;
  /** Asked inside the approval's transaction, on its connection. */
  isBanned: (userId: number, em: EntityManager) => Promise<boolean>;
  /** Pushes the released post to its thread's subscribers (after the approval committed). */
  released: (postId: number) => void;
}

/**
 * Kind `forum_post`: a post held by the first-post queue (COMMUNITY_QUEUE_FIRST_POSTS). Approving
 * shows it (and the thread it started) in the approval's transaction, after checking again that
 * it still can: the post and its thread not deleted, a reply's thread not locked, the author not
 * banned since. Denying deletes it, so it never shows.
 */
export function forumPostApproval(deps: ForumPostApprovalDeps): ApprovalKind<ForumPostSubject> {
  return {
    kind: 'forum_post',
    subject: ForumPostSubject,
    async recheckAndApply(em, subject, decision) {
      const thread = await deps.reads.thread(subject.thread_id, em, true);
      const post = await deps.reads.post(subject.post_id, em, true);
      if (!thread || !post || post.thread_id !== thread.id) throw conflict('the post no longer exists');
      if (!post.pending) throw conflict('the post is no longer held');
      if (post.deleted_at !== null || thread.deleted_at !== null) throw conflict('the post has been deleted');
      if (!thread.pending && thread.locked) throw conflict('the thread is locked');
      if (await deps.isBanned(post.author_id, em)) throw conflict('the author is banned');
      await ForumWrites.releasePost(em, { id: post.id, threadId: thread.id }, decision.now);
    },
    async onDenied(em, subject, decision) {
      const post = await deps.reads.post(subject.post_id, em, true);
      if (!post || post.deleted_at !== null) return;
      await ForumWrites.deletePost(em, { id: post.id, threadId: post.thread_id, pending: true }, decision.now);
      if (subject.thread_title !== null) await ForumWrites.deleteThread(em, subject.thread_id, decision.now);
    },
    afterDecision(subject, status) {
      if (status === 'approved') deps.released(subject.post_id);
    },
  };
}

/** The forum's queue port over the approvals module: one pending approval per held post. */
export function forumPostQueue(approvals: Approvals, kind: ApprovalKind<ForumPostSubject>): ForumPostQueue {
  return { enqueue: (em, subject, requestedBy) => approvals.requestIn(em, kind, subject, `post:${subject.post_id}`, requestedBy) };
}
