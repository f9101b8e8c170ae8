import type { UserPublic } from '../../schema/user';

/** A users row, camelCased: what the users repository hands out. */
export interface UserRecord {
  id: number;
  platformId: string;
  username: string;
  avatarUrl: string | null;
  elo: number;
  matchesPlayed: number;
  wins: number;
  losses: number;
  isAdmin: boolean;
  chatAccountId: string | null;
  chatUsername: string | null;
  customAvatarUrl: string | null;
  nameColor: string | null;
  profileFrame: string | null;
  createdAt: Date;
  lastLoginAt: Date | null;
  lastSeenAt: Date | null;
}

/** A bought custom avatar wins over the platform's. */
export function toUserPublic(user: UserRecord): UserPublic {
  return {
    id: user.id,
    platform_id: user.platformId,
    username: user.username,
    avatar_url: user.customAvatarUrl ?? user.avatarUrl,
    elo: user.elo,
    name_color: user.nameColor,
    profile_frame: user.profileFrame,
  };
}

/**
 * A raw `users` row (snake_case, as the driver returns it) as a record. The repository reads rows
 * with plain SQL and maps them here, not through `em.map`: that built a managed entity and merged
 * it into the identity map, a visible share of every session request's CPU time in the fan-out
 * benchmark's profile, for a row that is only read.
 */
export function toUserRecord(row: unknown): UserRecord {
  const r = row as Record<string, unknown>;
  return {
    id: Number(r.id),
    platformId: String(r.platform_id),
    username: String(r.username),
    avatarUrl: textOrNull(r.avatar_url),
    elo: Number(r.elo),
    matchesPlayed: Number(r.matches_played),
    wins: Number(r.wins),
    losses: Number(r.losses),
    isAdmin: r.is_admin === true,
    chatAccountId: textOrNull(r.chat_account_id),
    chatUsername: textOrNull(r.chat_username),
    customAvatarUrl: textOrNull(r.custom_avatar_url),
    nameColor: textOrNull(r.name_color),
    profileFrame: textOrNull(r.profile_frame),
    createdAt: dateOf(r.created_at)!,
    lastLoginAt: dateOf(r.last_login_at),
    lastSeenAt: dateOf(r.last_seen_at),
  };
}

const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** The driver hands timestamptz over as a Date, or as text where its parser is switched off. */
const dateOf = (value: unknown): Date | null => (value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value)));
