import { describe, expect, it } from 'vitest';
import { invite } from '../../../src/domain/party/party-invites';
import { disband, kick, leave } from '../../../src/domain/party/party-membership';
import { partyMembers } from '../../../src/domain/party/party-state';
import { errorOf, NOW, partyWith, stateOf, user } from './party-fixtures';

describe('leaving a party', () => {
  it('removes a member who is not the leader and keeps the leader', () => {
    const party = partyWith(2, 3);
    const outcome = leave(party, { userId: 2 }, NOW);
    const next = stateOf(outcome)!;
    expect(partyMembers(next)).toEqual([1, 3]);
    expect(next.leaderId).toBe(1);
    expect(next.version).toBe(party.version + 1);
    expect(outcome.ok && outcome.events).toEqual([{ type: 'member_left', partyId: party.id, userId: 2, at: NOW }]);
  });

  it('passes leadership to the next member when the leader leaves', () => {
    const outcome = leave(partyWith(2, 3), { userId: 1 }, NOW);
    const next = stateOf(outcome)!;
    expect(next.leaderId).toBe(2);
    expect(partyMembers(next)).toEqual([2, 3]);
    expect(outcome.ok && outcome.events).toEqual([
      { type: 'member_left', partyId: 10, userId: 1, at: NOW },
      { type: 'leader_changed', partyId: 10, leaderId: 2, at: NOW },
    ]);
  });

  it('disbands the party when the last member leaves', () => {
    const party = stateOf(invite(partyWith(), { inviteId: 50, invitee: user(5) }, { userId: 1 }, NOW));
    const outcome = leave(party, { userId: 1 }, NOW);
    expect(stateOf(outcome)).toBeNull();
    expect(outcome.ok && outcome.events).toEqual([
      { type: 'member_left', partyId: 10, userId: 1, at: NOW },
      { type: 'party_disbanded', partyId: 10, memberIds: [1], inviteeIds: [5], at: NOW },
    ]);
  });

  it('refuses someone who is not a member as forbidden', () => {
    expect(errorOf(leave(partyWith(2), { userId: 9 }, NOW)).kind).toBe('forbidden');
  });
});

describe('kicking a member', () => {
  it('removes the member when the leader kicks', () => {
    const party = partyWith(2, 3);
    const outcome = kick(party, { userId: 2 }, { userId: 1 }, NOW);
    const next = stateOf(outcome)!;
    expect(partyMembers(next)).toEqual([1, 3]);
    expect(next.version).toBe(party.version + 1);
    expect(outcome.ok && outcome.events).toEqual([
      { type: 'member_kicked', partyId: 10, userId: 2, byUserId: 1, at: NOW },
    ]);
  });

  it('refuses a member who is not the leader as forbidden', () => {
    expect(errorOf(kick(partyWith(2, 3), { userId: 3 }, { userId: 2 }, NOW)).kind).toBe('forbidden');
  });

  it('refuses an outsider as forbidden', () => {
    expect(errorOf(kick(partyWith(2), { userId: 2 }, { userId: 9 }, NOW)).kind).toBe('forbidden');
  });

  it('answers not found for a target who is not a member', () => {
    expect(errorOf(kick(partyWith(2), { userId: 9 }, { userId: 1 }, NOW)).kind).toBe('not_found');
  });

  it('refuses the leader kicking themselves as a conflict', () => {
    expect(errorOf(kick(partyWith(2), { userId: 1 }, { userId: 1 }, NOW)).kind).toBe('conflict');
  });
});

describe('disbanding a party', () => {
  it('deletes the party and names everyone who was in it or invited', () => {
    const party = stateOf(invite(partyWith(2, 3), { inviteId: 50, invitee: user(5) }, { userId: 1 }, NOW));
    const outcome = disband(party, { userId: 1 }, NOW);
    expect(stateOf(outcome)).toBeNull();
    expect(outcome.ok && outcome.events).toEqual([
      { type: 'party_disbanded', partyId: 10, memberIds: [1, 2, 3], inviteeIds: [5], at: NOW },
    ]);
  });

  it('refuses a member who is not the leader as forbidden', () => {
    expect(errorOf(disband(partyWith(2), { userId: 2 }, NOW)).kind).toBe('forbidden');
  });

  it('refuses an outsider as forbidden', () => {
    expect(errorOf(disband(partyWith(2), { userId: 9 }, NOW)).kind).toBe('forbidden');
  });
});
