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
    summary: 'The full profile of the logged-in user', success: { status: 200, schema: UserSelf }, errors: [401, 403],
  }),
  leaderboard: defineRoute({
    operationId: 'getUsersLeaderboard', method: 'get', path: '/api/users/leaderboard', tag, auth: [],
    summary: 'Top players by ELO (limit default 50, clamped to 1..100)', query: LeaderboardQuery,
    success: { status: 200, schema: v.array(UserPublic) }, errors: [400],
  }),
  online: defineRoute({
    operationId: 'getOnlineUsers', method: 'get', path: '/api/users/online', tag, auth: [],
    summary: 'Users active within the last 5 minutes', success: { status: 200, schema: v.array(UserPublic) }, errors: [],
  }),
  card: defineRoute({
    operationId: 'getUserCard', method: 'get', path: '/api/users/card/:userId', tag, auth: [],
    summary: 'The profile popover of a user', params: UserIdParams, success: { status: 200, schema: UserCard }, errors: [404],
  }),
  setCustomAvatar: defineRoute({
    operationId: 'setCustomAvatar', method: 'post', path: '/api/users/set-custom-avatar', tag, auth: ['session'],
    summary: 'Buys a custom avatar (an https image URL on a public host; the server never fetches it, browsers do) with points', body: SetCustomAvatarBody,
    success: { status: 200, schema: OkBody }, errors: [400, 401, 402, 403],
  }),
  setProfileMakeover: defineRoute({
    operationId: 'setProfileMakeover', method: 'post', path: '/api/users/set-profile-makeover', tag, auth: ['session'],
    summary: 'Applies owned name colour and/or profile frame rewards (null clears; not owned: 404)', body: SetProfileMakeoverBody,
    success: { status: 200, schema: OkBody }, errors: [400, 401, 403, 404],
  }),
  byPlatformId: defineRoute({
    operationId: 'getUserByPlatformId', method: 'get', path: '/api/users/:platformId', tag, auth: [],
    summary: 'A user by 64-bit platform account id', params: PlatformIdParams,
    success: { status: 200, schema: UserPublic }, errors: [404],
  }),
};
