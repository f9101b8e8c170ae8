import type { UserPublic } from '../../schema/user';

/**
 * A users row joined as `u` into a read that shows people: the columns of UserPublic (a bought
 * custom avatar wins over the platform's), and the mapping back. One place, so every read shows
 * a user the same way.
 */
export const USER_PUBLIC_COLUMNS = `u.id as user_id, u.platform_id, u.username, coalesce(u.custom_avatar_url, u.avatar_url) as avatar_url,
              u.elo, u.name_color, u.profile_frame`;

export interface UserPublicRow {
  user_id: number;
  platform_id: string;
  username: string;
  avatar_url: string | null;
  elo: number;
  name_color: string | null;
  profile_frame: string | null;
}

export const userPublicOf = (row: UserPublicRow): UserPublic => ({
  id: row.user_id,
  platform_id: row.platform_id,
  username: row.username,
  avatar_url: row.avatar_url,
  elo: row.elo,
  name_color: row.name_color,
  profile_frame: row.profile_frame,
});
