import type { TeamActor, TeamMember, TeamRole, TeamState } from '../../../src/domain/teams';

export const T0 = Date.UTC(2026, 10, 1, 12);

/** User ids by role in `team()`: 1 leads, 2 and 3 captain, 4 to 6 are members; 7 to 9 are outsiders. */
export const LEADER = 1;
export const CAPTAINS = [2, 3];
export const MEMBERS = [4, 5, 6];
export const OUTSIDERS = [7, 8, 9];
export const ADMIN = 99;

export function team(overrides: Partial<TeamState> = {}): TeamState {
  const member = (userId: number, role: TeamRole, i: number): TeamMember => ({ userId, role, joinedAt: T0 + i });
  return {
    id: 10,
    name: 'Blue Lightning',
    tag: 'BLU',
    description: '',
    leaderId: LEADER,
    members: [member(LEADER, 'leader', 0), ...CAPTAINS.map((id, i) => member(id, 'captain', i + 1)), ...MEMBERS.map((id, i) => member(id, 'member', i + 3))],
    disbanded: false,
    version: 7,
    ...overrides,
  };
}

export const actor = (id: number, extra: Partial<TeamActor> = {}): TeamActor => ({ id, isAdmin: id === ADMIN, banned: false, ...extra });

export const roleIn = (state: TeamState, userId: number): TeamRole | undefined => state.members.find((m) => m.userId === userId)?.role;

/** Every user the fixtures know, with the role they hold in `team()` (or "outsider", "admin"). */
export const EVERYONE: Array<[number, string]> = [
  [LEADER, 'leader'],
  ...CAPTAINS.map((id): [number, string] => [id, 'captain']),
  ...MEMBERS.map((id): [number, string] => [id, 'member']),
  ...OUTSIDERS.map((id): [number, string] => [id, 'outsider']),
  [ADMIN, 'admin'],
];
