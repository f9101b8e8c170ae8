import type { InferEntity } from '@mikro-orm/core';
import type { UserPublic } from '../../schema/user';
import type { User } from './entities';

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

export function toUserRecord(user: InferEntity<typeof User>): UserRecord {
  return {
    id: user.id,
    platformId: user.platformId,
    username: user.username,
    avatarUrl: user.avatarUrl ?? null,
    elo: user.elo,
    matchesPlayed: user.matchesPlayed,
    wins: user.wins,
    losses: user.losses,
    isAdmin: user.isAdmin,
    chatAccountId: user.chatAccountId ?? null,
    chatUsername: user.chatUsername ?? null,
    customAvatarUrl: user.customAvatarUrl ?? null,
    nameColor: user.nameColor ?? null,
    profileFrame: user.profileFrame ?? null,
    createdAt: user.createdAt,
    lastLoginAt: user.lastLoginAt ?? null,
    lastSeenAt: user.lastSeenAt ?? null,
  };
}
