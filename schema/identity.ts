import * as v from 'valibot';
import { clampedQueryInt, IntegerParam, IsoDateTime } from './common';
import { UserPublic } from './user';

/** The caller's own profile: everything public plus what only its owner sees. */
export const UserSelf = v.object({
  ...UserPublic.entries,
  /** The identity provider's avatar, kept beside a bought custom one. */
  platform_avatar_url: v.nullable(v.string()),
  custom_avatar_url: v.nullable(v.string()),
  is_admin: v.boolean(),
  is_premium: v.boolean(),
  premium_expires_at: v.nullable(IsoDateTime),
  chat_account_id: v.nullable(v.string()),
  chat_username: v.nullable(v.string()),
  matches_played: v.pipe(v.number(), v.integer()),
  wins: v.pipe(v.number(), v.integer()),
  losses: v.pipe(v.number(), v.integer()),
  created_at: IsoDateTime,
  last_login_at: v.nullable(IsoDateTime),
});
export type UserSelf = v.InferOutput<typeof UserSelf>;

/** The profile popover: public fields plus record and presence. */
export const UserCard = v.object({
  ...UserPublic.entries,
  matches_played: v.pipe(v.number(), v.integer()),
  wins: v.pipe(v.number(), v.integer()),
  losses: v.pipe(v.number(), v.integer()),
  is_admin: v.boolean(),
  online: v.boolean(),
  chat_username: v.nullable(v.string()),
  member_since: IsoDateTime,
});
export type UserCard = v.InferOutput<typeof UserCard>;

export const LeaderboardQuery = v.object({ limit: clampedQueryInt(50, 1, 100) });

export const UserIdParams = v.object({ userId: IntegerParam });
export const PlatformIdParams = v.object({ platformId: v.pipe(v.string(), v.regex(/^\d{1,20}$/)) });

export const SetCustomAvatarBody = v.object({
  avatar_url: v.pipe(
    v.string(),
    v.maxLength(2048),
    v.description(
      'An https URL of a .png, .jpg, .jpeg, .gif or .webp image on a public host name: IP addresses and local names ' +
        '(localhost, *.local, *.internal, single labels) are refused. The server never fetches this URL; browsers load it.',
    ),
  ),
});

const RewardRef = v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))));
export const SetProfileMakeoverBody = v.object({
  name_color_reward_id: RewardRef,
  profile_frame_reward_id: RewardRef,
});

export const ApiKeyKind = v.picklist(['premium', 'admin']);

export const ApiKeyIssueBody = v.object({ label: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(64)))) });

export const AdminKeyIssueBody = v.object({
  label: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(64)))),
  /** The admin account the key acts for; the caller by default. */
  user_id: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});

export const ApiKeyAuditEntry = v.object({
  endpoint: v.string(),
  method: v.string(),
  /** HMAC-SHA256 of the client address with a server secret: comparable, not reversible. */
  client_hash: v.string(),
  status: v.pipe(v.number(), v.integer()),
  at: IsoDateTime,
});

/** What every view of a key shows: never the hash. */
const ApiKeyBase = v.object({
  id: v.pipe(v.number(), v.integer()),
  user_id: v.pipe(v.number(), v.integer()),
  kind: ApiKeyKind,
  label: v.nullable(v.string()),
  /** The first characters of the raw key, to recognise it. */
  key_prefix: v.string(),
  created_at: IsoDateTime,
});

/** A key as its owner (or an admin) sees it: never the hash, never the raw key. */
export const ApiKeyRecord = v.object({
  ...ApiKeyBase.entries,
  last_used_at: v.nullable(IsoDateTime),
  revoked_at: v.nullable(IsoDateTime),
  /** The newest 20 uses, newest first. */
  audit: v.array(ApiKeyAuditEntry),
});
export type ApiKeyRecord = v.InferOutput<typeof ApiKeyRecord>;

export const ApiKeyIssueResponse = v.object({
  ...ApiKeyBase.entries,
  /** Shown exactly once; only its SHA-256 is stored. */
  raw_key: v.string(),
});
export type ApiKeyIssueResponse = v.InferOutput<typeof ApiKeyIssueResponse>;

export const KeyIdParams = v.object({ id: IntegerParam });

/** GET /api/premium/api-keys/current: which key a bot is using, and for whom. */
export const CurrentKey = v.object({
  id: v.pipe(v.number(), v.integer()),
  kind: ApiKeyKind,
  label: v.nullable(v.string()),
  key_prefix: v.string(),
  user: UserPublic,
});
export type CurrentKey = v.InferOutput<typeof CurrentKey>;
