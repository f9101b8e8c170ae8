import * as v from 'valibot';
import { IntegerParam, IsoDateTime } from './common';
import { pageOf, PageQuery } from './paging';
import { UserPublic } from './user';

export const TeamRoleName = v.picklist(['leader', 'captain', 'member']);

const Name = v.pipe(v.string(), v.minLength(3, 'must be 3 to 32 characters'), v.maxLength(32, 'must be 3 to 32 characters'));
const Tag = v.pipe(v.string(), v.regex(/^[A-Za-z0-9]{1,6}$/, 'must be 1 to 6 letters or digits'));
const Description = v.pipe(v.string(), v.maxLength(1000, 'must be at most 1000 characters'));
const UserId = v.pipe(v.number(), v.integer('must be an integer'), v.minValue(1, 'must be a positive integer'));

export const TeamIdParams = v.object({ id: IntegerParam });
export const InviteIdParams = v.object({ id: IntegerParam });

export const TeamMemberView = v.object({ user: UserPublic, role: TeamRoleName, joined_at: IsoDateTime });

export const TeamView = v.object({
  id: v.number(),
  name: v.string(),
  tag: v.string(),
  description: v.string(),
  leader_id: v.number(),
  members: v.array(TeamMemberView),
  created_at: IsoDateTime,
  /** Set once the team is disbanded: its page and history stay readable, it is gone from lists. */
  disbanded_at: v.nullable(IsoDateTime),
  version: v.number(),
});
export type TeamView = v.InferOutput<typeof TeamView>;

export const TeamSummary = v.object({ id: v.number(), name: v.string(), tag: v.string(), leader_id: v.number(), member_count: v.number() });
export type TeamSummary = v.InferOutput<typeof TeamSummary>;

export const TeamSearchQuery = v.object({ q: v.optional(v.pipe(v.string(), v.maxLength(64, 'must be at most 64 characters'))), ...PageQuery });
export const TeamPage = pageOf('teams', TeamSummary);

export const MembershipIntervalView = v.object({
  user_id: v.number(),
  username: v.string(),
  role: TeamRoleName,
  joined_at: IsoDateTime,
  left_at: v.nullable(IsoDateTime),
  left_reason: v.nullable(v.picklist(['left', 'kicked', 'disbanded'])),
});

export const TeamCreateBody = v.object({ name: Name, tag: Tag, description: v.optional(Description, '') });
export type TeamCreateBody = v.InferOutput<typeof TeamCreateBody>;
export const TeamPatchBody = v.object({ name: v.optional(Name), tag: v.optional(Tag), description: v.optional(Description) });

export const TeamInviteBody = v.object({ user_id: UserId });
export const TeamKickBody = v.object({ user_id: UserId });
export const TeamRoleBody = v.object({ user_id: UserId, role: TeamRoleName });

export const TeamInviteView = v.object({
  id: v.number(),
  team_id: v.number(),
  user_id: v.number(),
  from_user_id: v.number(),
  created_at: IsoDateTime,
});
export const MyTeamInvite = v.object({ ...TeamInviteView.entries, team: TeamSummary });
