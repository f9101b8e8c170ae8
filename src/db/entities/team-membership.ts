import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Team } from './team';
import { User } from './user';

/**
 * One stay of a user on a team: the roster history is these intervals, the current roster the
 * open ones (`left_at` null, at most one per team and user: a partial unique index).
 */
export const TeamMembership = defineEntity({
  name: 'TeamMembership',
  tableName: 'team_memberships',
  properties: {
    id: p.integer().primary(),
    team: () => p.manyToOne(Team).mapToPk(),
    user: () => p.manyToOne(User).mapToPk(),
    role: p.enum(['leader', 'captain', 'member'] as const),
    joinedAt: p.datetime().defaultRaw('now()'),
    leftAt: p.datetime().nullable(),
    leftReason: p.enum(['left', 'kicked', 'disbanded'] as const).nullable(),
  },
  uniques: [
    {
      name: 'team_memberships_open_unique',
      expression: `create unique index "team_memberships_open_unique" on "team_memberships" ("team_id", "user_id") where "left_at" is null`,
    },
  ],
  indexes: [
    { name: 'team_memberships_team_id_index', properties: ['team', 'joinedAt'] },
    {
      name: 'team_memberships_open_user_index',
      expression: `create index "team_memberships_open_user_index" on "team_memberships" ("user_id") where "left_at" is null`,
    },
  ],
  checks: [
    {
      name: 'team_memberships_interval_check',
      expression: '("left_at" is null) = ("left_reason" is null) and ("left_at" is null or "left_at" >= "joined_at")',
    },
  ],
});
export type TeamMembershipEntity = InferEntity<typeof TeamMembership>;
