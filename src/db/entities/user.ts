import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A player account, created on first platform login. ELO and the win/loss tallies move only through recordMatch. */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.integer().primary(),
    platformId: p.string().length(32).unique('users_platform_id_unique'),
    username: p.string().length(64),
    avatarUrl: p.text().nullable(),
    elo: p.integer().default(1000),
    matchesPlayed: p.integer().default(0),
    wins: p.integer().default(0),
    losses: p.integer().default(0),
    isAdmin: p.boolean().default(false),
    chatAccountId: p.string().length(64).nullable().unique('users_chat_account_id_unique'),
    chatUsername: p.string().length(64).nullable(),
    customAvatarUrl: p.text().nullable(),
    nameColor: p.string().length(32).nullable(),
    profileFrame: p.string().length(64).nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    lastLoginAt: p.datetime().nullable(),
    lastSeenAt: p.datetime().nullable(),
  },
});
export type UserEntity = InferEntity<typeof User>;
