import type { UserCard, UserSelf } from '../../schema/identity';
import { toUserPublic, type UserRecord } from '../db/user-record';

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

/** The caller's own profile; `premiumUntil` is when their premium ends (null: not premium). */
export function toUserSelf(user: UserRecord, premiumUntil: Date | null): UserSelf {
  return {
    ...toUserPublic(user),
    platform_avatar_url: user.avatarUrl,
    custom_avatar_url: user.customAvatarUrl,
    is_admin: user.isAdmin,
    is_premium: premiumUntil !== null,
    premium_expires_at: iso(premiumUntil),
    chat_account_id: user.chatAccountId,
    chat_username: user.chatUsername,
    matches_played: user.matchesPlayed,
    wins: user.wins,
    losses: user.losses,
    created_at: user.createdAt.toISOString(),
    last_login_at: iso(user.lastLoginAt),
  };
}

export function toUserCard(user: UserRecord, online: boolean): UserCard {
  return {
    ...toUserPublic(user),
    matches_played: user.matchesPlayed,
    wins: user.wins,
    losses: user.losses,
    is_admin: user.isAdmin,
    online,
    chat_username: user.chatUsername,
    member_since: user.createdAt.toISOString(),
  };
}

/** The caller's own profile with premium read now (UserSelf carries it). */
export async function loadUserSelf(
  user: UserRecord,
  premium: { premiumUntil(userId: number, now: Date): Promise<Date | null> },
  now: Date,
): Promise<UserSelf> {
  return toUserSelf(user, await premium.premiumUntil(user.id, now));
}
