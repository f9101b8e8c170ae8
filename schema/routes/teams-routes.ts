import * as v from 'valibot';
import { ApprovalPending } from '../approvals';
import { OkBody } from '../common';
import { defineRoute, type Credential } from '../route-contract';
import {
  InviteIdParams, MembershipIntervalView, MyTeamInvite, TeamCreateBody, TeamIdParams, TeamInviteBody, TeamInviteView, TeamKickBody, TeamPage,
  TeamPatchBody, TeamRoleBody, TeamSearchQuery, TeamView,
} from '../teams';

const tag = 'Teams';
/** Every changing team route: a session or an admin key; banned accounts get 403. */
const member = { tag, auth: ['session', 'admin'] as Credential[] };
const LOCKED =
  ' While the team is entered in a running tournament with a locked roster, the change waits for an admin: 202 `{approval_id}` and nothing changes until it is approved (GET /api/approvals/mine).';

/** The answer of a join, leave or kick that waits for an admin. */
export const LOCKED_ANSWER = { status: 202, schema: ApprovalPending, description: 'The roster is locked: the change waits for an admin' };

export const teamsRoutes = {
  search: defineRoute({
    operationId: 'searchTeams', method: 'get', path: '/api/teams', tag, auth: [], query: TeamSearchQuery,
    summary: 'Live teams, by name',
    description: 'Teams not disbanded whose name or tag contains `q` (ignoring case), ordered by name; paged (`page` from 1, `limit` 1 to 100, default 20; out of range: 400).',
    success: { status: 200, schema: TeamPage }, errors: [400],
  }),
  // Declared before `/api/teams/:id` so the literal path is not read as an id.
  myInvites: defineRoute({
    operationId: 'listMyTeamInvites', method: 'get', path: '/api/teams/invites/mine', ...member,
    summary: "The caller's pending team invites",
    description: 'Every invite to the caller still waiting for an answer, newest first, each with the inviting team as a TeamSummary.',
    success: { status: 200, schema: v.array(MyTeamInvite) }, errors: [401, 403],
  }),
  acceptInvite: defineRoute({
    operationId: 'acceptTeamInvite', method: 'post', path: '/api/teams/invites/:id/accept', ...member, params: InviteIdParams,
    summary: 'Join the team that invited the caller',
    description: `The caller becomes a member at once (200 \`{ok}\`). Someone else's invite: 403; answered already or the team disbanded: 409; on another team entered in the same tournament: 409.${LOCKED}`,
    success: { status: 200, schema: OkBody, description: 'Joined' }, alsoSuccess: [LOCKED_ANSWER], errors: [401, 403, 404, 409],
  }),
  declineInvite: defineRoute({
    operationId: 'declineTeamInvite', method: 'post', path: '/api/teams/invites/:id/decline', ...member, params: InviteIdParams,
    summary: 'Turn down a team invite',
    description: "The invite is closed. Someone else's invite: 403; already answered or withdrawn: 409.",
    success: { status: 200, schema: OkBody }, errors: [401, 403, 404, 409],
  }),
  create: defineRoute({
    operationId: 'createTeam', method: 'post', path: '/api/teams', ...member, body: TeamCreateBody,
    summary: 'Found a team, led by the caller',
    description: 'Name 3 to 32 characters and tag 1 to 6 letters or digits, each unique among live teams ignoring case (taken: 409); description up to 1000 characters. The caller is its leader and first member.',
    bodyExample: { name: 'Blue Lightning', tag: 'BLU', description: 'Sunday 6v6, EU' },
    success: { status: 201, schema: TeamView }, errors: [400, 401, 403, 409],
  }),
  get: defineRoute({
    operationId: 'getTeam', method: 'get', path: '/api/teams/:id', tag, auth: [], params: TeamIdParams,
    summary: 'A team and its current roster',
    description: 'Members are listed leader first, then captains, then members, each by join time. A disbanded team is still answered, with `disbanded_at` set and no members.',
    success: { status: 200, schema: TeamView }, errors: [404],
  }),
  history: defineRoute({
    operationId: 'getTeamHistory', method: 'get', path: '/api/teams/:id/history', tag, auth: [], params: TeamIdParams,
    summary: "A team's roster history",
    description: 'Every membership interval, oldest first: who joined when and left when (`left_at` null while still on the team), and why they left (left, kicked, disbanded).',
    success: { status: 200, schema: v.array(MembershipIntervalView) }, errors: [404],
  }),
  edit: defineRoute({
    operationId: 'editTeam', method: 'patch', path: '/api/teams/:id', ...member, params: TeamIdParams, body: TeamPatchBody,
    summary: "Change a team's name, tag or description",
    description: 'The leader or an admin. Fields left out stay as they are; a name or tag another live team has (ignoring case): 409.',
    bodyExample: { description: 'Now recruiting a medic' },
    success: { status: 200, schema: TeamView }, errors: [400, 401, 403, 404, 409],
  }),
  disband: defineRoute({
    operationId: 'disbandTeam', method: 'delete', path: '/api/teams/:id', ...member, params: TeamIdParams,
    summary: 'Disband a team',
    description: 'The leader or an admin. Every membership closes, pending invites are withdrawn, the name and tag are free again; the team and its history stay readable. Entered in a tournament that has not ended: 409.',
    success: { status: 204 }, errors: [401, 403, 404, 409],
  }),
  invite: defineRoute({
    operationId: 'inviteToTeam', method: 'post', path: '/api/teams/:id/invites', ...member, params: TeamIdParams, body: TeamInviteBody,
    summary: 'Invite a user to the team',
    description: 'The leader or a captain. Already a member or already invited: 409; no such user: 404.',
    bodyExample: { user_id: 42 },
    success: { status: 201, schema: TeamInviteView }, errors: [400, 401, 403, 404, 409],
  }),
  leave: defineRoute({
    operationId: 'leaveTeam', method: 'post', path: '/api/teams/:id/leave', ...member, params: TeamIdParams,
    summary: 'Leave a team',
    description: `The caller's membership closes (200 \`{ok}\`). The leader cannot leave while others remain (409: hand the lead over first); not a member: 404.${LOCKED}`,
    success: { status: 200, schema: OkBody, description: 'Left' }, alsoSuccess: [LOCKED_ANSWER], errors: [401, 403, 404, 409],
  }),
  kick: defineRoute({
    operationId: 'kickFromTeam', method: 'post', path: '/api/teams/:id/kick', ...member, params: TeamIdParams, body: TeamKickBody,
    summary: 'Remove a member from the team',
    description: `The leader kicks captains and members, a captain kicks members; the leader cannot be kicked (403). Not a member: 409.${LOCKED}`,
    bodyExample: { user_id: 42 },
    success: { status: 200, schema: OkBody, description: 'Kicked' }, alsoSuccess: [LOCKED_ANSWER], errors: [400, 401, 403, 404, 409],
  }),
  setRole: defineRoute({
    operationId: 'setTeamRole', method: 'post', path: '/api/teams/:id/roles', ...member, params: TeamIdParams, body: TeamRoleBody,
    summary: "Set a member's role",
    description: 'The leader (or an admin) makes a member a captain or a member again; role `leader` hands the lead over and the old leader becomes a captain. Not a member, or the role they already have: 409.',
    bodyExample: { user_id: 42, role: 'captain' },
    success: { status: 200, schema: TeamView }, errors: [400, 401, 403, 404, 409],
  }),
};

