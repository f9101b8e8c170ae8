import { conflict, fail, forbidden, notFound, succeed, type Outcome } from '../domain-error';
import { leadsOrAdmin, refuseChange } from './team-guards';
import { memberOf, type TeamActor, type TeamEvent, type TeamState } from './team-state';

type TeamOutcome = Outcome<TeamState, TeamEvent>;

/** A user joins as a member (an accepted invite, or an approved transfer). */
export function join(team: TeamState, userId: number, actor: TeamActor, now: number): TeamOutcome {
  const refused = refuseChange(team, actor);
  if (refused) return fail(refused);
  if (memberOf(team, userId)) return fail(conflict('already a member of the team'));
  return succeed({ ...team, members: [...team.members, { userId, role: 'member', joinedAt: now }], version: team.version + 1 }, [
    { type: 'member_joined', userId, role: 'member' },
  ]);
}

/** A member leaves; the leader only as the last member (then the team is empty: disband it instead). */
export function leave(team: TeamState, actor: TeamActor): TeamOutcome {
  const refused = refuseChange(team, actor);
  if (refused) return fail(refused);
  const member = memberOf(team, actor.id);
  if (!member) return fail(notFound('not a member of the team'));
  if (member.role === 'leader') {
    return fail(conflict(team.members.length > 1 ? 'the leader cannot leave while others remain: hand the lead over first' : 'the last member disbands the team instead of leaving'));
  }
  return removed(team, actor.id, 'left');
}

/**
 * The leader (or an admin) kicks anyone but the leader; a captain kicks members only. Nobody
 * kicks themself (that is leaving).
 */
export function kick(team: TeamState, userId: number, actor: TeamActor): TeamOutcome {
  const refused = refuseChange(team, actor);
  if (refused) return fail(refused);
  const kicker = memberOf(team, actor.id);
  if (!actor.isAdmin && (!kicker || kicker.role === 'member')) return fail(forbidden('only the leader or a captain can kick'));
  if (userId === actor.id) return fail(conflict('use leave to leave the team'));
  const target = memberOf(team, userId);
  if (!target) return fail(conflict('that user is not a member of the team'));
  if (target.role === 'leader') return fail(forbidden('the leader cannot be kicked'));
  if (target.role === 'captain' && !leadsOrAdmin(team, actor)) return fail(forbidden('only the leader can kick a captain'));
  return removed(team, userId, 'kicked');
}

/** Disbanding closes every membership; the team stays readable in its history. */
export function disband(team: TeamState, actor: TeamActor, enteredInCompetition: boolean): TeamOutcome {
  const refused = refuseChange(team, actor);
  if (refused) return fail(refused);
  if (!leadsOrAdmin(team, actor)) return fail(forbidden('only the leader or an admin can disband the team'));
  if (enteredInCompetition) return fail(conflict('the team is entered in a tournament that has not ended'));
  return succeed({ ...team, members: [], disbanded: true, version: team.version + 1 }, [{ type: 'disbanded' }]);
}

function removed(team: TeamState, userId: number, reason: 'left' | 'kicked'): TeamOutcome {
  return succeed({ ...team, members: team.members.filter((m) => m.userId !== userId), version: team.version + 1 }, [
    { type: 'member_left', userId, reason },
  ]);
}
