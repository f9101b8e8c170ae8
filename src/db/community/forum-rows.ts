import type { UserPublic } from '../../../schema/user';

/** The author columns every thread and post read selects beside its own (joined as `u`). */
export const AUTHOR_COLUMNS = `u.id as author_id, u.platform_id as author_platform_id, u.username as author_username,
  coalesce(u.custom_avatar_url, u.avatar_url) as author_avatar_url, u.elo as author_elo,
  u.name_color as author_name_color, u.profile_frame as author_profile_frame`;

export interface AuthorColumns {
  author_id: number;
  author_platform_id: string;
  author_username: string;
  author_avatar_url: string | null;
  author_elo: number;
  author_name_color: string | null;
  author_profile_frame: string | null;
}

export const THREAD_COLUMNS = `t.id, t.category_id, t.title, t.pinned, t.locked, t.hidden, t.pending, t.post_count,
  t.created_at, t.last_post_at, t.deleted_at, ${AUTHOR_COLUMNS}`;

export const POST_COLUMNS = `p.id, p.thread_id, p.body, p.body_html, p.pending, p.created_at, p.edited_at, p.deleted_at, ${AUTHOR_COLUMNS}`;

export interface ThreadRow extends AuthorColumns {
  id: number;
  category_id: number;
  title: string;
  pinned: boolean;
  locked: boolean;
  hidden: boolean;
  pending: boolean;
  post_count: number;
  created_at: Date;
  last_post_at: Date;
  deleted_at: Date | null;
}

export interface PostRow extends AuthorColumns {
  id: number;
  thread_id: number;
  body: string;
  body_html: string;
  pending: boolean;
  created_at: Date;
  edited_at: Date | null;
  deleted_at: Date | null;
}

export function authorOf(row: AuthorColumns): UserPublic {
  return {
    id: row.author_id,
    platform_id: row.author_platform_id,
    username: row.author_username,
    avatar_url: row.author_avatar_url,
    elo: row.author_elo,
    name_color: row.author_name_color,
    profile_frame: row.author_profile_frame,
  };
}

/** A page of rows and the count of all that match. */
export interface Paged<T> {
  rows: T[];
  total: number;
}

export const offsetOf = (page: number, limit: number) => (page - 1) * limit;
