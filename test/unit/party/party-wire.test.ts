import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { invite } from '../../../src/domain/party/party-invites';
import { Party, partyView } from '../../../src/domain/party/party-wire';
import { partyMembers } from '../../../src/domain/party/party-state';
import { NOW, partyWith, stateOf, user } from './party-fixtures';

describe('the party as the wire shows it', () => {
  const party = stateOf(invite(partyWith(2), { inviteId: 50, invitee: user(3) }, { userId: 1 }, NOW));

  it('uses snake_case fields and leaves out internal bookkeeping', () => {
    expect(partyView(party)).toEqual({
      id: 10,
      code: 'ABC234',
      name: null,
      leader_id: 1,
      members: [user(1), user(2)],
      invites: [{ id: 50, to_platform_id: user(3).platform_id, from_user_id: 1 }],
    });
  });

  it('matches the Party schema', () => {
    expect(v.is(Party, partyView(party))).toBe(true);
  });

  it('lists member ids leader first', () => {
    expect(partyMembers(party)).toEqual([1, 2]);
  });
});
