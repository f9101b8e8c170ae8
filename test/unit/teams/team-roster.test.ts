import { describe, expect, it } from 'vitest';
import { disband, join, kick, leave, type TeamState } from '../../../src/domain/teams';
import { actor, ADMIN, CAPTAINS, EVERYONE, LEADER, MEMBERS, OUTSIDERS, roleIn, team, T0 } from './team-fixtures';

const expectNoChange = (outcome: { ok: boolean }) => expect(outcome.ok).toBe(false);

describe('joining', () => {
  it.each(OUTSIDERS)('adds outsider %i as a member at the time given', (id) => {
    const outcome = join(team(), id, actor(id), T0 + 50);
    expect(outcome.ok && outcome.state.members.at(-1)).toEqual({ userId: id, role: 'member', joinedAt: T0 + 50 });
    expect(outcome.ok && outcome.events).toEqual([{ type: 'member_joined', userId: id, role: 'member' }]);
    expect(outcome.ok && outcome.state.version).toBe(8);
  });

  it.each([LEADER, ...CAPTAINS, ...MEMBERS])('refuses user %i, already on the team', (id) => {
    expect(join(team(), id, actor(id), T0)).toMatchObject({ ok: false, error: { kind: 'conflict', message: 'already a member of the team' } });
  });

  it('refuses a disbanded team', () => {
    expect(join(team({ disbanded: true, members: [] }), 7, actor(7), T0)).toMatchObject({ ok: false, error: { kind: 'conflict' } });
  });

  it('refuses a banned player', () => {
    expect(join(team(), 7, actor(7, { banned: true }), T0)).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
  });
});

describe('leaving', () => {
  it.each([...CAPTAINS, ...MEMBERS])('lets member %i go', (id) => {
    const outcome = leave(team(), actor(id));
    expect(outcome.ok && roleIn(outcome.state, id)).toBeUndefined();
    expect(outcome.ok && outcome.events).toEqual([{ type: 'member_left', userId: id, reason: 'left' }]);
  });

  it('keeps the leader while others remain, naming the way out', () => {
    expect(leave(team(), actor(LEADER))).toMatchObject({ ok: false, error: { kind: 'conflict', message: 'the leader cannot leave while others remain: hand the lead over first' } });
  });

  it('tells a lone leader to disband instead', () => {
    const alone = team({ members: [{ userId: LEADER, role: 'leader', joinedAt: T0 }] });
    expect(leave(alone, actor(LEADER))).toMatchObject({ ok: false, error: { kind: 'conflict' } });
  });

  it.each([...OUTSIDERS, ADMIN])('answers not found to %i, who is not on the team', (id) => {
    expect(leave(team(), actor(id))).toMatchObject({ ok: false, error: { kind: 'not_found' } });
  });

  it('is refused to a banned member', () => {
    expect(leave(team(), actor(MEMBERS[0], { banned: true }))).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
  });
});

/** Who may kick whom: every pair of the fixture's users. */
function kickAllowed(kicker: string, target: string): boolean {
  if (target === 'leader' || target === 'outsider' || target === 'admin') return false;
  if (kicker === 'leader' || kicker === 'admin') return true;
  return kicker === 'captain' && target === 'member';
}

describe('kicking', () => {
  const pairs = EVERYONE.flatMap(([kicker, kickerRole]) =>
    EVERYONE.filter(([target]) => target !== kicker).map(([target, targetRole]) => [kicker, kickerRole, target, targetRole] as const),
  );

  it.each(pairs)('by %i (%s) of %i (%s) follows the role rules', (kicker, kickerRole, target, targetRole) => {
    const outcome = kick(team(), target, actor(kicker));
    expect(outcome.ok).toBe(kickAllowed(kickerRole, targetRole));
    if (outcome.ok) {
      expect(roleIn(outcome.state, target)).toBeUndefined();
      expect(outcome.events).toEqual([{ type: 'member_left', userId: target, reason: 'kicked' }]);
      expect(outcome.state.members).toHaveLength(team().members.length - 1);
    }
  });

  it.each([LEADER, ...CAPTAINS])('of oneself by %i is refused: that is leaving', (id) => {
    expect(kick(team(), id, actor(id))).toMatchObject({ ok: false, error: { kind: 'conflict' } });
  });

  it('of someone already gone is a conflict, so the second of two kicks fails', () => {
    const first = kick(team(), MEMBERS[0], actor(CAPTAINS[0]));
    expect(first.ok).toBe(true);
    const second = kick((first as { state: TeamState }).state, MEMBERS[0], actor(CAPTAINS[1]));
    expect(second).toMatchObject({ ok: false, error: { kind: 'conflict', message: 'that user is not a member of the team' } });
  });

  it('is refused to a banned leader', () => {
    expectNoChange(kick(team(), MEMBERS[0], actor(LEADER, { banned: true })));
  });
});

describe('disbanding', () => {
  it.each(EVERYONE)('by %i (%s) is allowed to the leader and an admin only', (id, role) => {
    const outcome = disband(team(), actor(id), false);
    expect(outcome.ok).toBe(role === 'leader' || role === 'admin');
  });

  it('closes every membership and marks the team', () => {
    const outcome = disband(team(), actor(LEADER), false);
    expect(outcome.ok && outcome.state).toMatchObject({ members: [], disbanded: true, version: 8 });
    expect(outcome.ok && outcome.events).toEqual([{ type: 'disbanded' }]);
  });

  it('is refused while the team is entered in a tournament that has not ended', () => {
    expect(disband(team(), actor(ADMIN), true)).toMatchObject({ ok: false, error: { kind: 'conflict' } });
  });

  it('is refused twice', () => {
    expect(disband(team({ disbanded: true, members: [] }), actor(ADMIN), false)).toMatchObject({ ok: false, error: { kind: 'conflict' } });
  });
});
