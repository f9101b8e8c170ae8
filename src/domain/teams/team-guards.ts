import { conflict, forbidden, type DomainError } from '../domain-error';
import type { TeamActor, TeamState } from './team-state';

/**
 * The checks every changing team command starts with, in the same order everywhere: a banned
 * user changes nothing (403), and a disbanded team takes no more changes (409).
 */
export function refuseChange(team: TeamState | null, actor: TeamActor): DomainError | null {
  if (actor.banned) return forbidden('banned users cannot change teams');
  if (team?.disbanded) return conflict('the team is disbanded');
  return null;
}

/** The leader, or an admin acting for the league. */
export const leadsOrAdmin = (team: TeamState, actor: TeamActor): boolean => actor.isAdmin || team.leaderId === actor.id;
