import type { ForumPostSubject, Post } from '../../schema/community';
import type { EntityManager } from '../db/orm';
import type { Caller } from '../identity/caller';


/**
 * The first-post queue as the forum sees it: the approvals module records the request in the
 * post's own transaction, so a queued post never exists without its approval.
 */
export interface ForumPostQueue {
  enqueue(em: EntityManager, subject: ForumPostSubject, requestedBy: number): Promise<number>;
}

/** The admin area's ban, for resolving a report with `ban_author` (src/admin/ban-admin.ts). */
export type BanAuthor = (caller: Caller, body: { user_id: number; reason: string; expires_at?: string }) => Promise<unknown>;

/** Tells every instance's subscribers of a thread that one of its posts is new or changed. */
export type ThreadPostPublisher = (threadId: number, post: Post) => void;
