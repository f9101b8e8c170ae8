import type * as v from 'valibot';
import type { MembershipIntervalView, MyTeamInvite, TeamInviteView, TeamSummary, TeamView } from '../../schema/teams';
import type { TeamInviteRecord } from '../db/team-invite-repository';
import type { MembershipInterval, TeamRecord, TeamSummaryRecord } from '../db/team-repository';

/** Records as the wire shows them (snake_case, ISO timestamps). */
export const toTeamView = (team: TeamRecord): TeamView => ({
  id: team.id,
  name: team.name,
  tag: team.tag,
  description: team.description,
  leader_id: team.leaderId,
  members: team.members.map((m) => ({ user: m.user, role: m.role, joined_at: m.joinedAt.toISOString() })),
  created_at: team.createdAt.toISOString(),
  disbanded_at: team.disbandedAt?.toISOString() ?? null,
  version: team.version,
});

export const toTeamSummary = (team: TeamSummaryRecord): TeamSummary => ({
  id: team.id,
  name: team.name,
  tag: team.tag,
  leader_id: team.leaderId,
  member_count: team.memberCount,
});

export const toMembershipInterval = (m: MembershipInterval): v.InferOutput<typeof MembershipIntervalView> => ({
  user_id: m.userId,
  username: m.username,
  role: m.role,
  joined_at: m.joinedAt.toISOString(),
  left_at: m.leftAt?.toISOString() ?? null,
  left_reason: m.leftReason,
});

export const toTeamInvite = (invite: TeamInviteRecord): v.InferOutput<typeof TeamInviteView> => ({
  id: invite.id,
  team_id: invite.teamId,
  user_id: invite.userId,
  from_user_id: invite.fromUserId,
  created_at: invite.createdAt.toISOString(),
});

export const toMyTeamInvite = (invite: TeamInviteRecord, team: TeamSummaryRecord): v.InferOutput<typeof MyTeamInvite> => ({
  ...toTeamInvite(invite),
  team: toTeamSummary(team),
});
