import * as v from 'valibot';
import { UserPublic } from '../../../schema/user';

/** A party holds at most this many members; pending invites do not count towards it. */
export const MAX_PARTY_MEMBERS = 9;

export const PartyInviteState = v.object({
  id: v.pipe(v.number(), v.integer()),
  toUserId: v.pipe(v.number(), v.integer()),
  toPlatformId: v.string(),
  fromUserId: v.pipe(v.number(), v.integer()),
});
export type PartyInviteState = v.InferOutput<typeof PartyInviteState>;

/**
 * The party as it is kept in the live store. A schema rather than a bare type so the engine can
 * check a document it reads back before handing it to the rules.
 */
export const PartyState = v.object({
  id: v.pipe(v.number(), v.integer()),
  code: v.string(),
  name: v.nullable(v.string()),
  leaderId: v.pipe(v.number(), v.integer()),
  /** The leader is always first, so leadership can pass to whoever joined next. */
  members: v.array(UserPublic),
  invites: v.array(PartyInviteState),
  createdAt: v.number(),
  /** Grows by one with every change, for compare-and-set in the live store. */
  version: v.pipe(v.number(), v.integer()),
});
export type PartyState = v.InferOutput<typeof PartyState>;

/** Who acts on a party; the engine has already resolved the session to a user id. */
export interface PartyActor {
  userId: number;
}

export const partyMembers = (state: PartyState): number[] => state.members.map((m) => m.id);

export const isPartyMember = (state: PartyState, userId: number): boolean =>
  state.members.some((m) => m.id === userId);

export const isPartyFull = (state: PartyState): boolean => state.members.length >= MAX_PARTY_MEMBERS;

export const invitedUserIds = (state: PartyState): number[] => state.invites.map((i) => i.toUserId);
