import * as v from 'valibot';
import { OkBody } from '../common';
import {
  LeaderboardQuery,
  PlatformIdParams,
  SetCustomAvatarBody,
  SetProfileMakeoverBody,
  UserCard,
  UserIdParams,
  UserSelf,
} from '../identity';
import { defineRoute } from '../route-contract';
import { UserPublic } from '../user';

const tag = 'Users';

/** GET /api/users/stats/global lives with the public reads (public-routes.ts). `byPlatformId` must be bound last. */
export const usersRoutes = {
  me: defineRoute({
    operationId: 'getMyProfile', method: 'get', path: '/api/users/me', tag, auth: ['session'],
    summary: 'The full profile of the logged-in user',
    description:
      'The caller\'s full profile (the same record as GET /auth/me).',
    success: { status: 200, schema: UserSelf }, errors: [401, 403],
  }),
  leaderboard: defineRoute({
    operationId: 'getUsersLeaderboard', method: 'get', path: '/api/users/leaderboard', tag, auth: [],
    summary: 'Top players by ELO (limit default 50, clamped to 1..100)', query: LeaderboardQuery,
    description:
      'Players ranked by ELO, limit clamped to 1..100.',
    success: { status: 200, schema: v.array(UserPublic) }, errors: [400],
  }),
  online: defineRoute({
    operationId: 'getOnlineUsers', method: 'get', path: '/api/users/online', tag, auth: [],
    summary: 'Users active within the last 5 minutes',
    description:
      'Users seen in the last 5 minutes.',
    success: { status: 200, schema: v.array(UserPublic) }, errors: [],
  }),
  card: defineRoute({
    operationId: 'getUserCard', method: 'get', path: '/api/users/card/:userId', tag, auth: [],
    summary: 'The profile popover of a user', params: UserIdParams,
    description:
      'What a profile popover shows: the public profile with record, admin flag, whether online, linked chat name and member-since date. 404 for an unknown id.',
    success: { status: 200, schema: UserCard }, errors: [404],
  }),
  setCustomAvatar: defineRoute({
    operationId: 'setCustomAvatar', method: 'post', path: '/api/users/set-custom-avatar', tag, auth: ['session'],
    summary: 'Buys a custom avatar (an https image URL on a public host; the server never fetches it, browsers do) with points', body: SetCustomAvatarBody,
    description:
      'Spends POINTS_CUSTOM_AVATAR_COST points (402 when short) to show the given https image as the caller\'s avatar; the ledger records the spend.',
    bodyExample: { avatar_url: 'https://images.example.org/me.png' },
    success: { status: 200, schema: OkBody }, errors: [400, 401, 402, 403],
  }),
  setProfileMakeover: defineRoute({
    operationId: 'setProfileMakeover', method: 'post', path: '/api/users/set-profile-makeover', tag, auth: ['session'],
    summary: 'Applies owned name colour and/or profile frame rewards (null clears; not owned: 404)', body: SetProfileMakeoverBody,
    description:
      'Wears owned rewards: a name colour and a profile frame (null takes one off). A reward the caller does not own: 404.',
    bodyExample: { name_color_reward_id: 3, profile_frame_reward_id: null },
    success: { status: 200, schema: OkBody }, errors: [400, 401, 403, 404],
  }),
  byPlatformId: defineRoute({
    operationId: 'getUserByPlatformId', method: 'get', path: '/api/users/:platformId', tag, auth: [],
    summary: 'A user by 64-bit platform account id', params: PlatformIdParams,
    description:
      'The public profile of the account with this platform id (17 digits); 404 when nobody has logged in with it.',
    success: { status: 200, schema: UserPublic }, errors: [404],
  }),
};
