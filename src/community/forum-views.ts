import type { Post, ThreadSummary } from '../../schema/community';
import { authorOf, type PostRow, type ThreadRow } from '../db/community/forum-rows';

/** A thread as the wire shows it (docs/design/CONTRACT.md "Community"). */
export function toThreadSummary(row: ThreadRow): ThreadSummary {
  return {
    id: row.id,
    category_id: row.category_id,
    title: row.title,
    author: authorOf(row),
    pinned: row.pinned,
    locked: row.locked,
    hidden: row.hidden,
    post_count: row.post_count,
    created_at: new Date(row.created_at).toISOString(),
    last_post_at: new Date(row.last_post_at).toISOString(),
  };
}

/** A post as the wire shows it; a deleted post keeps its place but not its text. */
export function toPost(row: PostRow): Post {
  const deleted = row.deleted_at !== null;
  return {
    id: row.id,
    thread_id: row.thread_id,
    author: authorOf(row),
    body: deleted ? '' : row.body,
    body_html: deleted ? '' : row.body_html,
    created_at: new Date(row.created_at).toISOString(),
    edited_at: row.edited_at ? new Date(row.edited_at).toISOString() : null,
    deleted,
  };
}
