import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { disband, editTeam, join, kick, leave, setRole, TEAM_ROLES, type TeamActor, type TeamState } from '../../../src/domain/teams';
import type { Outcome } from '../../../src/domain/domain-error';
import type { TeamEvent } from '../../../src/domain/teams';
import { team, T0 } from './team-fixtures';

/*
 * Random command sequences from random users (some banned, one admin) against one team. Whatever
 * happens: exactly one leader while the team lives, named by leaderId; no user twice; a refused
 * command changes nothing; an applied one bumps the version by one; a banned user changes nothing.
 */

const userId = fc.integer({ min: 1, max: 12 });
const who = fc.record({ id: userId, banned: fc.integer({ min: 0, max: 9 }).map((n) => n === 0), isAdmin: fc.constant(false) }).map(
  (a): TeamActor => (a.id === 12 ? { ...a, isAdmin: true } : a),
);

type Step =
  | { op: 'join'; target: number }
  | { op: 'leave' }
  | { op: 'kick'; target: number }
  | { op: 'role'; target: number; role: (typeof TEAM_ROLES)[number] }
  | { op: 'edit'; name: string }
  | { op: 'disband'; entered: boolean };

const step: fc.Arbitrary<{ actor: TeamActor; step: Step }> = fc.record({
  actor: who,
  step: fc.oneof(
    { arbitrary: userId.map((target) => ({ op: 'join', target }) as Step), weight: 5 },
    { arbitrary: fc.constant({ op: 'leave' } as Step), weight: 2 },
    { arbitrary: userId.map((target) => ({ op: 'kick', target }) as Step), weight: 3 },
    { arbitrary: fc.record({ target: userId, role: fc.constantFrom(...TEAM_ROLES) }).map((s) => ({ op: 'role', ...s }) as Step), weight: 3 },
    { arbitrary: fc.string({ maxLength: 40 }).map((name) => ({ op: 'edit', name }) as Step), weight: 1 },
    { arbitrary: fc.boolean().map((entered) => ({ op: 'disband', entered }) as Step), weight: 1 },
  ),
});

function run(state: TeamState, actor: TeamActor, s: Step, now: number): Outcome<TeamState, TeamEvent> {
  switch (s.op) {
    case 'join':
      return join(state, s.target, { ...actor, id: s.target }, now);
    case 'leave':
      return leave(state, actor);
    case 'kick':
      return kick(state, s.target, actor);
    case 'role':
      return setRole(state, s.target, s.role, actor);
    case 'edit':
      return editTeam(state, { name: s.name }, actor);
    case 'disband':
      return disband(state, actor, s.entered);
  }
}

function checkInvariants(state: TeamState): void {
  const ids = state.members.map((m) => m.userId);
  expect(new Set(ids).size).toBe(ids.length);
  if (state.disbanded) {
    expect(state.members).toEqual([]);
    return;
  }
  expect(state.members.filter((m) => m.role === 'leader').map((m) => m.userId)).toEqual([state.leaderId]);
}

describe('any sequence of team commands', () => {
  it('keeps one leader, no duplicates, and versions that count applied changes', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let state = team();
        steps.forEach(({ actor, step: s }, i) => {
          const before = JSON.stringify(state);
          const outcome = run(state, actor, s, T0 + i);
          if (!outcome.ok) {
            expect(JSON.stringify(state)).toBe(before);
            return;
          }
          expect(actor.banned).toBe(false);
          expect(outcome.state.version).toBe(state.version + 1);
          expect(outcome.events.length).toBeGreaterThan(0);
          state = outcome.state;
          checkInvariants(state);
        });
      }),
      { numRuns: 400 },
    );
  });
});
