import { fail, invalid, forbidden, succeed, type DomainError, type Outcome } from '../domain-error';
import { leadsOrAdmin, refuseChange } from './team-guards';
import type { TeamActor, TeamEvent, TeamState } from './team-state';

export const TEAM_NAME_MIN = 3;
export const TEAM_NAME_MAX = 32;
export const TEAM_TAG_PATTERN = /^[A-Za-z0-9]{1,6}$/;
export const TEAM_DESCRIPTION_MAX = 1000;

export interface TeamProfile {
  name: string;
  tag: string;
  description: string;
}

/**
 * Name 3-32 characters (counted as people see them, so a name is not blank), tag 1-6 of A-Z a-z
 * 0-9, description at most 1000. Text is kept as written; the messages name the field and the rule.
 */
export function checkProfile(profile: TeamProfile): DomainError | null {
  const nameLength = [...profile.name].length;
  if (profile.name.trim().length === 0 || nameLength < TEAM_NAME_MIN || nameLength > TEAM_NAME_MAX) {
    return invalid(`name must be ${TEAM_NAME_MIN} to ${TEAM_NAME_MAX} characters`);
  }
  if (!TEAM_TAG_PATTERN.test(profile.tag)) return invalid('tag must be 1 to 6 letters or digits');
  if ([...profile.description].length > TEAM_DESCRIPTION_MAX) return invalid(`description must be at most ${TEAM_DESCRIPTION_MAX} characters`);
  return null;
}

/** A new team: the creator leads it and is its first member. Uniqueness is the store's (an index). */
export function createTeam(id: number, profile: TeamProfile, actor: TeamActor, now: number): Outcome<TeamState, TeamEvent> {
  const refused = refuseChange(null, actor) ?? checkProfile(profile);
  if (refused) return fail(refused);
  return succeed(
    { id, ...profile, leaderId: actor.id, members: [{ userId: actor.id, role: 'leader', joinedAt: now }], disbanded: false, version: 1 },
    [{ type: 'created', leaderId: actor.id }],
  );
}

/** The leader or an admin changes any of name, tag and description; the rest stays. */
export function editTeam(team: TeamState, patch: Partial<TeamProfile>, actor: TeamActor): Outcome<TeamState, TeamEvent> {
  const refused = refuseChange(team, actor);
  if (refused) return fail(refused);
  if (!leadsOrAdmin(team, actor)) return fail(forbidden('only the leader or an admin can edit the team'));
  const next: TeamProfile = {
    name: patch.name ?? team.name,
    tag: patch.tag ?? team.tag,
    description: patch.description ?? team.description,
  };
  const wrong = checkProfile(next);
  if (wrong) return fail(wrong);
  return succeed({ ...team, ...next, version: team.version + 1 }, [{ type: 'profile_changed', ...next }]);
}
