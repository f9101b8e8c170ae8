import { describe, expect, it } from 'vitest';
import { checkProfile, createTeam, editTeam } from '../../../src/domain/teams';
import { actor, ADMIN, CAPTAINS, EVERYONE, LEADER, team, T0 } from './team-fixtures';

const profile = (name: string, tag = 'TAG', description = '') => ({ name, tag, description });

describe('a team name', () => {
  it.each(['abc', 'Blue Lightning', 'x'.repeat(32), 'Équipe été', '東京チーム', 'a b', '💥💥💥'])('of 3 to 32 characters is accepted: %s', (name) => {
    expect(checkProfile(profile(name))).toBeNull();
  });

  it.each(['', 'ab', 'x'.repeat(33), '   ', '\t\t\t', 'é'.repeat(33)])('outside 3 to 32 characters, or blank, is refused: %j', (name) => {
    expect(checkProfile(profile(name))).toMatchObject({ kind: 'invalid', message: 'name must be 3 to 32 characters' });
  });

  it('is counted in characters people see, not UTF-16 units', () => {
    expect(checkProfile(profile('💥'.repeat(32)))).toBeNull();
  });
});

describe('a team tag', () => {
  it.each(['A', 'BLU', 'abc123', 'Z9Z9Z9', '000000', 'x'])('of 1 to 6 letters or digits is accepted: %s', (tag) => {
    expect(checkProfile(profile('Good name', tag))).toBeNull();
  });

  it.each(['', 'TOOLONG', 'a-b', 'a b', 'ÉTÉ', 'x_y', '[BLU]', '１２３'])('of anything else is refused: %j', (tag) => {
    expect(checkProfile(profile('Good name', tag))).toMatchObject({ kind: 'invalid', message: 'tag must be 1 to 6 letters or digits' });
  });
});

describe('a team description', () => {
  it.each([0, 1, 999, 1000])('of %i characters is accepted', (n) => {
    expect(checkProfile(profile('Good name', 'TAG', 'd'.repeat(n)))).toBeNull();
  });

  it.each([1001, 5000])('of %i characters is refused', (n) => {
    expect(checkProfile(profile('Good name', 'TAG', 'd'.repeat(n)))?.kind).toBe('invalid');
  });
});

describe('creating a team', () => {
  it('makes the creator its leader and only member at version 1', () => {
    const outcome = createTeam(5, profile('Founders', 'FND'), actor(7), T0);
    expect(outcome).toEqual({
      ok: true,
      state: { id: 5, name: 'Founders', tag: 'FND', description: '', leaderId: 7, members: [{ userId: 7, role: 'leader', joinedAt: T0 }], disbanded: false, version: 1 },
      events: [{ type: 'created', leaderId: 7 }],
    });
  });

  it('is refused to a banned user', () => {
    expect(createTeam(5, profile('Founders', 'FND'), actor(7, { banned: true }), T0)).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
  });

  it('keeps the text as written', () => {
    const outcome = createTeam(5, profile('  <b>Spaced</b>  ', 'abc', ' hi '), actor(7), T0);
    expect(outcome.ok && outcome.state).toMatchObject({ name: '  <b>Spaced</b>  ', tag: 'abc', description: ' hi ' });
  });
});

describe('editing a team', () => {
  it.each(EVERYONE)('by user %i (%s) is allowed only to the leader and an admin', (id, role) => {
    const outcome = editTeam(team(), { description: 'new' }, actor(id));
    expect(outcome.ok).toBe(role === 'leader' || role === 'admin');
    if (!outcome.ok) expect(outcome.error.kind).toBe('forbidden');
  });

  it('changes only the fields given and bumps the version', () => {
    const outcome = editTeam(team(), { tag: 'NEW' }, actor(LEADER));
    expect(outcome.ok && outcome.state).toMatchObject({ name: 'Blue Lightning', tag: 'NEW', description: '', version: 8 });
    expect(outcome.ok && outcome.events).toEqual([{ type: 'profile_changed', name: 'Blue Lightning', tag: 'NEW', description: '' }]);
  });

  it('checks the new profile by the same rules as creating', () => {
    expect(editTeam(team(), { name: 'ab' }, actor(ADMIN))).toMatchObject({ ok: false, error: { kind: 'invalid' } });
  });

  it('is refused on a disbanded team', () => {
    expect(editTeam(team({ disbanded: true, members: [] }), { description: 'x' }, actor(ADMIN))).toMatchObject({ ok: false, error: { kind: 'conflict' } });
  });

  it('is refused to a banned leader', () => {
    expect(editTeam(team(), { description: 'x' }, actor(LEADER, { banned: true }))).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
  });

  it('is refused to a captain even for the description', () => {
    expect(editTeam(team(), { description: 'x' }, actor(CAPTAINS[0]))).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
  });
});
