import { describe, expect, it } from 'vitest';
import { createParty } from '../../../src/domain/party/create-party';
import { PartyState } from '../../../src/domain/party/party-state';
import * as v from 'valibot';
import { errorOf, NOW, stateOf, user } from './party-fixtures';

const free = { profile: user(1), currentParty: null, banned: false };

describe('creating a party', () => {
  it('makes the creator the leader and only member, at version 1', () => {
    const outcome = createParty({ id: 7, code: 'ABC234', name: 'Friday stack' }, free, NOW);
    expect(stateOf(outcome)).toEqual({
      id: 7,
      code: 'ABC234',
      name: 'Friday stack',
      leaderId: 1,
      members: [user(1)],
      invites: [],
      createdAt: NOW,
      version: 1,
    });
    expect(outcome.ok && outcome.events).toEqual([{ type: 'party_created', partyId: 7, leaderId: 1, at: NOW }]);
  });

  it('produces a document the stored-state schema accepts', () => {
    const state = stateOf(createParty({ id: 7, code: 'ABC234' }, free, NOW));
    expect(v.is(PartyState, state)).toBe(true);
  });

  it('leaves the name null when none is given', () => {
    expect(stateOf(createParty({ id: 7, code: 'ABC234' }, free, NOW)).name).toBeNull();
  });

  it('treats a blank name as no name', () => {
    expect(stateOf(createParty({ id: 7, code: 'ABC234', name: '   ' }, free, NOW)).name).toBeNull();
  });

  it('accepts a name of exactly 32 characters', () => {
    expect(stateOf(createParty({ id: 7, code: 'ABC234', name: 'x'.repeat(32) }, free, NOW)).name).toHaveLength(32);
  });

  it('refuses a name longer than 32 characters as invalid', () => {
    expect(errorOf(createParty({ id: 7, code: 'ABC234', name: 'x'.repeat(33) }, free, NOW)).kind).toBe('invalid');
  });

  it('refuses a banned user as forbidden', () => {
    expect(errorOf(createParty({ id: 7, code: 'ABC234' }, { ...free, banned: true }, NOW)).kind).toBe('forbidden');
  });

  it('refuses a user who is already in a party as a conflict', () => {
    expect(errorOf(createParty({ id: 7, code: 'ABC234' }, { ...free, currentParty: 3 }, NOW)).kind).toBe('conflict');
  });
});
