import { conflict, fail, forbidden, notFound, succeed, type Outcome } from '../domain-error';
import type { PartyEvent } from './party-events';
import { invitedUserIds, isPartyMember, partyMembers, type PartyActor, type PartyState } from './party-state';

/** A null state means the party no longer exists and its document is deleted. */
export type PartyOutcome = Outcome<PartyState | null, PartyEvent>;

const disbanded = (state: PartyState, memberIds: number[], now: number): PartyEvent => ({
  type: 'party_disbanded',
  partyId: state.id,
  memberIds,
  inviteeIds: invitedUserIds(state),
  at: now,
});

export function leave(state: PartyState, actor: PartyActor, now: number): PartyOutcome {
  if (!isPartyMember(state, actor.userId)) return fail(forbidden('not a member of this party'));

  const members = state.members.filter((m) => m.id !== actor.userId);
  const left: PartyEvent = { type: 'member_left', partyId: state.id, userId: actor.userId, at: now };
  if (members.length === 0) return succeed(null, [left, disbanded(state, [actor.userId], now)]);

  // Members are kept in joining order, so the longest-standing member takes over.
  const leaderId = state.leaderId === actor.userId ? members[0].id : state.leaderId;
  const events: PartyEvent[] = [left];
  if (leaderId !== state.leaderId) events.push({ type: 'leader_changed', partyId: state.id, leaderId, at: now });

  return succeed({ ...state, leaderId, members, version: state.version + 1 }, events);
}

export interface KickCommand {
  userId: number;
}

export function kick(state: PartyState, command: KickCommand, actor: PartyActor, now: number): PartyOutcome {
  if (state.leaderId !== actor.userId) return fail(forbidden('only the party leader can kick'));
  if (command.userId === actor.userId) return fail(conflict('the leader cannot kick themselves; leave instead'));
  if (!isPartyMember(state, command.userId)) return fail(notFound('not a member of this party'));

  return succeed(
    { ...state, members: state.members.filter((m) => m.id !== command.userId), version: state.version + 1 },
    [{ type: 'member_kicked', partyId: state.id, userId: command.userId, byUserId: actor.userId, at: now }],
  );
}

export function disband(state: PartyState, actor: PartyActor, now: number): PartyOutcome {
  if (state.leaderId !== actor.userId) return fail(forbidden('only the party leader can disband'));
  return succeed(null, [disbanded(state, partyMembers(state), now)]);
}
