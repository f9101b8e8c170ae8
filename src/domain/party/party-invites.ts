import type { UserPublic } from '../../../schema/user';
import { conflict, fail, forbidden, notFound, succeed, type Outcome } from '../domain-error';
import type { PartyEvent } from './party-events';
import { invitedUserIds, isPartyFull, isPartyMember, type PartyActor, type PartyState } from './party-state';

export interface InviteCommand {
  /** Allocated by the engine. */
  inviteId: number;
  /** Already looked up by platform id; an unknown invitee is the engine's 404. */
  invitee: UserPublic;
}

export function invite(
  state: PartyState,
  command: InviteCommand,
  actor: PartyActor,
  now: number,
): Outcome<PartyState, PartyEvent> {
  if (!isPartyMember(state, actor.userId)) return fail(forbidden('not a member of this party'));
  if (state.leaderId !== actor.userId) return fail(forbidden('only the party leader can invite'));

  const { invitee, inviteId } = command;
  if (isPartyMember(state, invitee.id)) return fail(conflict('already a member of this party'));
  if (invitedUserIds(state).includes(invitee.id)) return fail(conflict('already invited to this party'));
  if (isPartyFull(state)) return fail(conflict('party is full'));

  return succeed(
    {
      ...state,
      invites: [
        ...state.invites,
        { id: inviteId, toUserId: invitee.id, toPlatformId: invitee.platform_id, fromUserId: actor.userId },
      ],
      version: state.version + 1,
    },
    [{ type: 'invite_sent', partyId: state.id, inviteId, toUserId: invitee.id, fromUserId: actor.userId, at: now }],
  );
}

export interface InviteAnswerCommand {
  inviteId: number;
}

export interface AcceptActor {
  /** The invitee's current profile, which becomes their member entry. */
  profile: UserPublic;
  currentParty: number | null;
}

export function accept(
  state: PartyState,
  command: InviteAnswerCommand,
  actor: AcceptActor,
  now: number,
): Outcome<PartyState, PartyEvent> {
  const pending = state.invites.find((i) => i.id === command.inviteId);
  if (!pending) return fail(notFound('invite not found'));
  if (pending.toUserId !== actor.profile.id) return fail(forbidden('this invite is for someone else'));
  if (actor.currentParty !== null || isPartyMember(state, actor.profile.id)) {
    return fail(conflict('already in a party'));
  }
  // The party may have filled up between the invite and its answer.
  if (isPartyFull(state)) return fail(conflict('party is full'));

  return succeed(
    {
      ...state,
      members: [...state.members, actor.profile],
      invites: state.invites.filter((i) => i.id !== pending.id),
      version: state.version + 1,
    },
    [{ type: 'invite_accepted', partyId: state.id, inviteId: pending.id, userId: actor.profile.id, at: now }],
  );
}

export function decline(
  state: PartyState,
  command: InviteAnswerCommand,
  actor: PartyActor,
  now: number,
): Outcome<PartyState, PartyEvent> {
  const pending = state.invites.find((i) => i.id === command.inviteId);
  if (!pending) return fail(notFound('invite not found'));
  if (pending.toUserId !== actor.userId) return fail(forbidden('this invite is for someone else'));

  return succeed(
    { ...state, invites: state.invites.filter((i) => i.id !== pending.id), version: state.version + 1 },
    [{ type: 'invite_declined', partyId: state.id, inviteId: pending.id, userId: actor.userId, at: now }],
  );
}

/**
 * Run by the system when the party joins a lobby: who was invited before the party committed to
 * a lobby should not be pulled into it later. With nothing pending the state is left untouched.
 */
export function clearInvites(state: PartyState, now: number): Outcome<PartyState, PartyEvent> {
  if (state.invites.length === 0) return succeed(state);
  return succeed({ ...state, invites: [], version: state.version + 1 }, [
    {
      type: 'invites_cleared',
      partyId: state.id,
      inviteIds: state.invites.map((i) => i.id),
      inviteeIds: invitedUserIds(state),
      at: now,
    },
  ]);
}
