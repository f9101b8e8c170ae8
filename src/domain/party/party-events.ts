/**
 * What changed in a party, for the engine to publish and to keep its user -> party and
 * user -> invites indexes in step. Ids rather than profiles: listeners re-read the party.
 */
export type PartyEvent =
  | { type: 'party_created'; partyId: number; leaderId: number; at: number }
  | { type: 'invite_sent'; partyId: number; inviteId: number; toUserId: number; fromUserId: number; at: number }
  | { type: 'invite_accepted'; partyId: number; inviteId: number; userId: number; at: number }
  | { type: 'invite_declined'; partyId: number; inviteId: number; userId: number; at: number }
  | { type: 'invites_cleared'; partyId: number; inviteIds: number[]; inviteeIds: number[]; at: number }
  | { type: 'member_left'; partyId: number; userId: number; at: number }
  | { type: 'member_kicked'; partyId: number; userId: number; byUserId: number; at: number }
  | { type: 'leader_changed'; partyId: number; leaderId: number; at: number }
  /** memberIds and inviteeIds are who belonged to or was invited to the party when it ended. */
  | { type: 'party_disbanded'; partyId: number; memberIds: number[]; inviteeIds: number[]; at: number };

export type PartyEventType = PartyEvent['type'];
