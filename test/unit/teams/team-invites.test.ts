import { describe, expect, it } from 'vitest';
import { checkAnswer, checkInvite } from '../../../src/domain/teams';
import { actor, CAPTAINS, EVERYONE, LEADER, MEMBERS, OUTSIDERS, team } from './team-fixtures';

describe('inviting', () => {
  const cases = EVERYONE.flatMap(([who, whoRole]) => EVERYONE.map(([target, targetRole]) => [who, whoRole, target, targetRole] as const));

  it.each(cases)('by %i (%s) of %i (%s): the leader or a captain invites someone not on the team', (who, whoRole, target, targetRole) => {
    const refused = checkInvite(team(), target, actor(who));
    const mayInvite = whoRole === 'leader' || whoRole === 'captain';
    const onTeam = targetRole === 'leader' || targetRole === 'captain' || targetRole === 'member';
    if (!mayInvite) expect(refused?.kind).toBe('forbidden');
    else if (onTeam) expect(refused?.kind).toBe('conflict');
    else expect(refused).toBeNull();
  });

  it('is refused to a banned captain', () => {
    expect(checkInvite(team(), OUTSIDERS[0], actor(CAPTAINS[0], { banned: true }))?.kind).toBe('forbidden');
  });

  it('is refused on a disbanded team', () => {
    expect(checkInvite(team({ disbanded: true }), OUTSIDERS[0], actor(LEADER))?.kind).toBe('conflict');
  });
});

describe('answering an invite', () => {
  it.each(['pending', 'accepted', 'declined', 'cancelled'] as const)('of status %s by the invitee is allowed only while pending', (status) => {
    const refused = checkAnswer({ userId: 7, status }, actor(7));
    expect(refused?.kind ?? null).toBe(status === 'pending' ? null : 'conflict');
  });

  it.each([LEADER, ...MEMBERS, 8, 99])("by %i, someone else, is forbidden", (who) => {
    expect(checkAnswer({ userId: 7, status: 'pending' }, actor(who))?.kind).toBe('forbidden');
  });

  it('by a banned invitee is forbidden', () => {
    expect(checkAnswer({ userId: 7, status: 'pending' }, actor(7, { banned: true }))?.kind).toBe('forbidden');
  });
});
