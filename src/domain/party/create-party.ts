import type { UserPublic } from '../../../schema/user';
import { conflict, fail, forbidden, invalid, succeed, type Outcome } from '../domain-error';
import type { PartyEvent } from './party-events';
import type { PartyState } from './party-state';

export const MAX_PARTY_NAME_LENGTH = 32;

export interface CreatePartyCommand {
  /** Allocated by the engine (an atomic counter), as is the code. */
  id: number;
  code: string;
  name?: string | null;
}

export interface CreatePartyActor {
  profile: UserPublic;
  /** The id of the party the actor is in now, if any (a user is in at most one party). */
  currentParty: number | null;
  banned: boolean;
}

export function createParty(
  command: CreatePartyCommand,
  actor: CreatePartyActor,
  now: number,
): Outcome<PartyState, PartyEvent> {
  if (actor.banned) return fail(forbidden('banned users cannot create a party'));
  if (actor.currentParty !== null) return fail(conflict('already in a party'));

  // A blank name is the same as no name: the party is then known by its code.
  const name = command.name?.trim() || null;
  if (name !== null && name.length > MAX_PARTY_NAME_LENGTH) {
    return fail(invalid(`party name is at most ${MAX_PARTY_NAME_LENGTH} characters`));
  }

  const state: PartyState = {
    id: command.id,
    code: command.code,
    name,
    leaderId: actor.profile.id,
    members: [actor.profile],
    invites: [],
    createdAt: now,
    version: 1,
  };
  return succeed(state, [{ type: 'party_created', partyId: state.id, leaderId: state.leaderId, at: now }]);
}
