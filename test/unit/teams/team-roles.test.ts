import { describe, expect, it } from 'vitest';
import { setRole, TEAM_ROLES, type TeamState } from '../../../src/domain/teams';
import { actor, ADMIN, CAPTAINS, EVERYONE, LEADER, MEMBERS, OUTSIDERS, roleIn, team } from './team-fixtures';

const leaders = (state: TeamState) => state.members.filter((m) => m.role === 'leader').map((m) => m.userId);

describe('setting a role', () => {
  const cases = EVERYONE.flatMap(([who, whoRole]) =>
    [...CAPTAINS, ...MEMBERS, ...OUTSIDERS].flatMap((target) => TEAM_ROLES.map((role) => [who, whoRole, target, role] as const)),
  );

  it.each(cases)('by %i (%s) on %i to %s keeps exactly one leader, named by leader_id', (who, whoRole, target, role) => {
    const before = team();
    const outcome = setRole(before, target, role, actor(who));
    const allowed = (whoRole === 'leader' || whoRole === 'admin') && roleIn(before, target) !== undefined && roleIn(before, target) !== role;
    expect(outcome.ok).toBe(allowed);
    if (!outcome.ok) return;
    expect(leaders(outcome.state)).toEqual([outcome.state.leaderId]);
    expect(roleIn(outcome.state, target)).toBe(role);
    expect(outcome.state.version).toBe(before.version + 1);
    expect(outcome.state.members.map((m) => m.userId)).toEqual(before.members.map((m) => m.userId));
  });

  it.each([...CAPTAINS, ...MEMBERS])('handing the lead to %i makes the old leader a captain', (target) => {
    const outcome = setRole(team(), target, 'leader', actor(LEADER));
    expect(outcome.ok && outcome.state.leaderId).toBe(target);
    expect(outcome.ok && roleIn(outcome.state, LEADER)).toBe('captain');
    expect(outcome.ok && outcome.events).toEqual([
      { type: 'role_changed', userId: LEADER, role: 'captain' },
      { type: 'role_changed', userId: target, role: 'leader' },
    ]);
  });

  it('is refused on the leader themself: the lead is handed over instead', () => {
    expect(setRole(team(), LEADER, 'member', actor(ADMIN))).toMatchObject({ ok: false, error: { kind: 'conflict' } });
  });

  it('is refused to a banned leader', () => {
    expect(setRole(team(), MEMBERS[0], 'captain', actor(LEADER, { banned: true }))).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
  });

  it('is refused on a disbanded team', () => {
    expect(setRole(team({ disbanded: true }), MEMBERS[0], 'captain', actor(LEADER))).toMatchObject({ ok: false, error: { kind: 'conflict' } });
  });
});
