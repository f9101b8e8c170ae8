import { describe, expect, it } from 'vitest';
import { accept, clearInvites, decline, invite } from '../../../src/domain/party/party-invites';
import { MAX_PARTY_MEMBERS } from '../../../src/domain/party/party-state';
import { errorOf, NOW, partyWith, stateOf, user } from './party-fixtures';

const leader = { userId: 1 };

describe('inviting to a party', () => {
  it('adds a pending invite from the leader and bumps the version', () => {
    const party = partyWith(2);
    const outcome = invite(party, { inviteId: 50, invitee: user(3) }, leader, NOW);
    const next = stateOf(outcome);
    expect(next.invites).toEqual([{ id: 50, toUserId: 3, toPlatformId: user(3).platform_id, fromUserId: 1 }]);
    expect(next.version).toBe(party.version + 1);
    expect(outcome.ok && outcome.events).toEqual([
      { type: 'invite_sent', partyId: party.id, inviteId: 50, toUserId: 3, fromUserId: 1, at: NOW },
    ]);
  });

  it('does not change the members', () => {
    expect(stateOf(invite(partyWith(2), { inviteId: 50, invitee: user(3) }, leader, NOW)).members).toEqual([user(1), user(2)]);
  });

  it('refuses a member who is not the leader as forbidden', () => {
    expect(errorOf(invite(partyWith(2), { inviteId: 50, invitee: user(3) }, { userId: 2 }, NOW)).kind).toBe('forbidden');
  });

  it('refuses an outsider as forbidden', () => {
    expect(errorOf(invite(partyWith(2), { inviteId: 50, invitee: user(3) }, { userId: 9 }, NOW)).kind).toBe('forbidden');
  });

  it('refuses inviting someone already in the party as a conflict', () => {
    expect(errorOf(invite(partyWith(2), { inviteId: 50, invitee: user(2) }, leader, NOW)).kind).toBe('conflict');
  });

  it('refuses inviting someone who already has a pending invite as a conflict', () => {
    const invited = stateOf(invite(partyWith(), { inviteId: 50, invitee: user(3) }, leader, NOW));
    expect(errorOf(invite(invited, { inviteId: 51, invitee: user(3) }, leader, NOW)).kind).toBe('conflict');
  });

  it(`refuses an invite when the party already has ${MAX_PARTY_MEMBERS} members as a conflict`, () => {
    const full = partyWith(2, 3, 4, 5, 6, 7, 8, 9);
    expect(full.members).toHaveLength(MAX_PARTY_MEMBERS);
    expect(errorOf(invite(full, { inviteId: 50, invitee: user(20) }, leader, NOW)).kind).toBe('conflict');
  });

  it('allows an invite while one seat is still free, pending invites not counting', () => {
    let party = partyWith(2, 3, 4, 5, 6, 7, 8);
    party = stateOf(invite(party, { inviteId: 50, invitee: user(20) }, leader, NOW));
    expect(stateOf(invite(party, { inviteId: 51, invitee: user(21) }, leader, NOW)).invites).toHaveLength(2);
  });
});

describe('answering an invite', () => {
  const invited = () => stateOf(invite(partyWith(2), { inviteId: 50, invitee: user(3) }, leader, NOW));
  const invitee = { profile: user(3), currentParty: null };

  it('accepting adds the invitee as the last member and removes the invite', () => {
    const party = invited();
    const outcome = accept(party, { inviteId: 50 }, invitee, NOW);
    const next = stateOf(outcome);
    expect(next.members).toEqual([user(1), user(2), user(3)]);
    expect(next.invites).toEqual([]);
    expect(next.version).toBe(party.version + 1);
    expect(outcome.ok && outcome.events).toEqual([
      { type: 'invite_accepted', partyId: party.id, inviteId: 50, userId: 3, at: NOW },
    ]);
  });

  it('accepting stores the profile the invitee has now', () => {
    const renamed = { ...user(3), username: 'renamed' };
    expect(stateOf(accept(invited(), { inviteId: 50 }, { profile: renamed, currentParty: null }, NOW)).members[2]).toEqual(renamed);
  });

  it('accepting an invite that is not in this party is not found', () => {
    expect(errorOf(accept(invited(), { inviteId: 99 }, invitee, NOW)).kind).toBe('not_found');
  });

  it('accepting someone else’s invite is forbidden', () => {
    expect(errorOf(accept(invited(), { inviteId: 50 }, { profile: user(4), currentParty: null }, NOW)).kind).toBe('forbidden');
  });

  it('accepting while in another party is a conflict', () => {
    expect(errorOf(accept(invited(), { inviteId: 50 }, { ...invitee, currentParty: 77 }, NOW)).kind).toBe('conflict');
  });

  it('accepting after the party filled up is a conflict', () => {
    const party = { ...invited(), members: partyWith(2, 4, 5, 6, 7, 8, 9, 10).members };
    expect(errorOf(accept(party, { inviteId: 50 }, invitee, NOW)).kind).toBe('conflict');
  });

  it('declining removes the invite and leaves the members alone', () => {
    const party = invited();
    const outcome = decline(party, { inviteId: 50 }, { userId: 3 }, NOW);
    const next = stateOf(outcome);
    expect(next.invites).toEqual([]);
    expect(next.members).toEqual(party.members);
    expect(next.version).toBe(party.version + 1);
    expect(outcome.ok && outcome.events).toEqual([
      { type: 'invite_declined', partyId: party.id, inviteId: 50, userId: 3, at: NOW },
    ]);
  });

  it('declining an invite that is not in this party is not found', () => {
    expect(errorOf(decline(invited(), { inviteId: 99 }, { userId: 3 }, NOW)).kind).toBe('not_found');
  });

  it('declining someone else’s invite is forbidden, even for the leader', () => {
    expect(errorOf(decline(invited(), { inviteId: 50 }, leader, NOW)).kind).toBe('forbidden');
  });
});

describe('clearing invites when the party joins a lobby', () => {
  it('removes every pending invite and names the invitees', () => {
    let party = stateOf(invite(partyWith(2), { inviteId: 50, invitee: user(3) }, leader, NOW));
    party = stateOf(invite(party, { inviteId: 51, invitee: user(4) }, leader, NOW));
    const outcome = clearInvites(party, NOW);
    expect(stateOf(outcome).invites).toEqual([]);
    expect(stateOf(outcome).version).toBe(party.version + 1);
    expect(outcome.ok && outcome.events).toEqual([
      { type: 'invites_cleared', partyId: party.id, inviteIds: [50, 51], inviteeIds: [3, 4], at: NOW },
    ]);
  });

  it('leaves a party without invites untouched', () => {
    const party = partyWith(2);
    const outcome = clearInvites(party, NOW);
    expect(stateOf(outcome)).toBe(party);
    expect(outcome.ok && outcome.events).toEqual([]);
  });
});
