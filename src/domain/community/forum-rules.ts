import { conflict, forbidden, notFound, type DomainError } from '../domain-error';

/** Who acts on the forum, as the rules need to know them. */
export interface ForumActor {
  id: number;
  isAdmin: boolean;
}

export interface ThreadFacts {
  authorId: number;
  locked: boolean;
  hidden: boolean;
  pending: boolean;
  deleted: boolean;
}

export interface PostFacts {
  authorId: number;
  deleted: boolean;
  pending: boolean;
}

/**
 * Whether a reader may see a thread at all. Hidden and deleted threads are 404 to everyone but
 * admins; a thread still waiting in the first-post queue is only its author's and the admins'.
 */
export function canSeeThread(thread: ThreadFacts, actor: ForumActor | null): boolean {
  if (actor?.isAdmin) return true;
  if (thread.deleted || thread.hidden) return false;
  return !thread.pending || thread.authorId === actor?.id;
}

/** Why `actor` may not start a thread in a category, or null. */
export function threadStartProblem(category: { adminOnlyPosting: boolean }, actor: ForumActor): DomainError | null {
  return category.adminOnlyPosting && !actor.isAdmin ? forbidden('only admins may start threads in this category') : null;
}

/** Why `actor` may not reply in a thread, or null (a locked thread takes replies from admins only). */
export function replyProblem(thread: ThreadFacts, actor: ForumActor): DomainError | null {
  if (!canSeeThread(thread, actor) || thread.pending) return notFound('thread not found');
  if (thread.locked && !actor.isAdmin) return conflict('the thread is locked');
  return null;
}

/** Why `actor` may not edit or delete a post, or null: its author or an admin, while it stands. */
export function postChangeProblem(post: PostFacts, thread: ThreadFacts, actor: ForumActor): DomainError | null {
  if (post.deleted || !canSeeThread(thread, actor)) return notFound('post not found');
  if (post.authorId !== actor.id && !actor.isAdmin) return forbidden('only the author or an admin may change this post');
  if (thread.locked && !actor.isAdmin) return conflict('the thread is locked');
  return null;
}

/** Whether the history of a post may be read: its author or an admin. */
export function historyProblem(post: PostFacts, actor: ForumActor): DomainError | null {
  return post.authorId === actor.id || actor.isAdmin ? null : forbidden('only the author or an admin may read this history');
}

/**
 * The first-post queue (COMMUNITY_QUEUE_FIRST_POSTS): a user's first `queueFirst` posts, counting
 * every post they ever wrote, wait for an admin. Admins never wait.
 */
export function mustQueue(postsWritten: number, queueFirst: number, actor: ForumActor): boolean {
  return !actor.isAdmin && postsWritten < queueFirst;
}
