import * as v from 'valibot';

/** A user as anyone may see them: slot occupants, pool members, leaderboard rows. */
export const UserPublic = v.object({
  id: v.pipe(v.number(), v.integer()),
  platform_id: v.string(),
  username: v.string(),
  avatar_url: v.nullable(v.string()),
  elo: v.pipe(v.number(), v.integer()),
  name_color: v.nullable(v.string()),
  profile_frame: v.nullable(v.string()),
});
export type UserPublic = v.InferOutput<typeof UserPublic>;
