import { conflict, forbidden, type DomainError } from '../domain-error';
import { refuseChange } from './team-guards';
import { memberOf, type TeamActor, type TeamState } from './team-state';

/** The leader or a captain invites someone who is not on the team yet. One pending invite each is the store's. */
export function checkInvite(team: TeamState, inviteeId: number, actor: TeamActor): DomainError | null {
  const refused = refuseChange(team, actor);
  if (refused) return refused;
  const inviter = memberOf(team, actor.id);
  if (!inviter || inviter.role === 'member') return forbidden('only the leader or a captain can invite');
  if (memberOf(team, inviteeId)) return conflict('that user is already a member of the team');
  return null;
}

export interface InviteView {
  userId: number;
  status: 'pending' | 'accepted' | 'declined' | 'cancelled';
}

/** Only the invited user answers an invite, and only once. */
export function checkAnswer(invite: InviteView, actor: TeamActor): DomainError | null {
  if (actor.banned) return forbidden('banned users cannot change teams');
  if (invite.userId !== actor.id) return forbidden('this invite is for someone else');
  if (invite.status !== 'pending') return conflict('the invite was already answered or withdrawn');
  return null;
}
