import { conflict, fail, forbidden, succeed, type Outcome } from '../domain-error';
import { refuseChange } from './team-guards';
import { memberOf, type TeamActor, type TeamEvent, type TeamRole, type TeamState } from './team-state';

/**
 * The leader (or an admin) sets a member's role. Giving `leader` hands the lead over: the old
 * leader becomes a captain, so a team always has exactly one leader.
 */
export function setRole(team: TeamState, userId: number, role: TeamRole, actor: TeamActor): Outcome<TeamState, TeamEvent> {
  const refused = refuseChange(team, actor);
  if (refused) return fail(refused);
  if (!actor.isAdmin && team.leaderId !== actor.id) return fail(forbidden('only the leader can change roles'));
  const target = memberOf(team, userId);
  if (!target) return fail(conflict('that user is not a member of the team'));
  if (target.role === role) return fail(conflict('the member already has that role'));
  if (target.role === 'leader') return fail(conflict('the leader changes role by handing the lead to another member'));
  const version = team.version + 1;
  if (role !== 'leader') {
    return succeed({ ...team, members: team.members.map((m) => (m.userId === userId ? { ...m, role } : m)), version }, [
      { type: 'role_changed', userId, role },
    ]);
  }
  const oldLeader = team.leaderId;
  const members = team.members.map((m) => (m.userId === userId ? { ...m, role: 'leader' as const } : m.userId === oldLeader ? { ...m, role: 'captain' as const } : m));
  return succeed({ ...team, leaderId: userId, members, version }, [
    { type: 'role_changed', userId: oldLeader, role: 'captain' },
    { type: 'role_changed', userId, role: 'leader' },
  ]);
}
