import { OkBody } from '../common';
import { InviteIdParams, PartyCreateBody, PartyCreated, PartyInviteBody, PartyKickBody, PartyMeBody } from '../party';
import { defineRoute } from '../route-contract';

const tag = 'Parties';

export const partyRoutes = {
  me: defineRoute({
    operationId: 'getMyParty', method: 'get', path: '/api/parties/me', tag, auth: [], optionalSession: true,
    summary: "The caller's party (null without one or without a session) and the invites they received",
    description:
      'The caller\'s party (null without one, or without a session) and the invites addressed to the caller.',
    success: { status: 200, schema: PartyMeBody }, errors: [],
  }),
  create: defineRoute({
    operationId: 'createParty', method: 'post', path: '/api/parties/create', tag, auth: ['session'], body: PartyCreateBody,
    summary: 'Create a party; the caller becomes its leader',
    description:
      'A party lets friends join a lobby together (party-join). A user is in at most one party (409); a banned user gets 403.',
    bodyExample: { name: 'Friday stack' },
    success: { status: 201, schema: PartyCreated }, errors: [400, 403, 409],
  }),
  invite: defineRoute({
    operationId: 'inviteToParty', method: 'post', path: '/api/parties/invite', tag, auth: ['session'], body: PartyInviteBody,
    summary: 'Leader invites a user by platform id',
    description:
      'The leader invites a user by platform id; unknown user 404, already a member or invited 409.',
    bodyExample: { to_platform_id: '76561198000000002' },
    success: { status: 200, schema: OkBody }, errors: [403, 404, 409],
  }),
  accept: defineRoute({
    operationId: 'acceptPartyInvite', method: 'post', path: '/api/parties/invite/:inviteId/accept', tag, auth: ['session'],
    params: InviteIdParams, summary: 'Join the party of an invite addressed to the caller',
    description:
      'Joins the inviting party; an invite addressed to someone else: 403, unknown 404, already in a party 409.',
    success: { status: 200, schema: OkBody },
    errors: [403, 404, 409],
  }),
  decline: defineRoute({
    operationId: 'declinePartyInvite', method: 'post', path: '/api/parties/invite/:inviteId/decline', tag, auth: ['session'],
    params: InviteIdParams, summary: 'Decline an invite addressed to the caller',
    description:
      'Declines an invite addressed to the caller; it disappears from both sides.',
    success: { status: 200, schema: OkBody }, errors: [403, 404],
  }),
  leave: defineRoute({
    operationId: 'leaveParty', method: 'post', path: '/api/parties/leave', tag, auth: ['session'],
    summary: 'Leave the party (the lead passes on)',
    description:
      'Leaves the party; when the leader leaves, the lead passes to another member.',
    success: { status: 200, schema: OkBody }, errors: [403],
  }),
  kick: defineRoute({
    operationId: 'kickFromParty', method: 'post', path: '/api/parties/kick', tag, auth: ['session'], body: PartyKickBody,
    summary: 'Leader removes a member',
    description:
      'The leader removes a member; not a member: 404.',
    bodyExample: { user_id: 42 },
    success: { status: 200, schema: OkBody }, errors: [403, 404, 409],
  }),
  disband: defineRoute({
    operationId: 'disbandParty', method: 'post', path: '/api/parties/disband', tag, auth: ['session'],
    summary: 'Leader ends the party for everyone',
    description:
      'The leader ends the party; every member is released.',
    success: { status: 200, schema: OkBody }, errors: [403],
  }),
};
