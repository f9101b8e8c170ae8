import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/**
 * A lasting team. Disbanding keeps the row (its history stays readable) and frees the name and the
 * tag: the two unique indexes on the lowered values cover live teams only (migration 0009).
 * `version` grows with every change a client shows (profile, roster, roles), for realtime order.
 */
export const Team = defineEntity({
  name: 'Team',
  tableName: 'teams',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(32),
    tag: p.string().length(6),
    description: p.string().length(1000).default(''),
    leader: () => p.manyToOne(User).mapToPk(),
    version: p.integer().default(1),
    createdAt: p.datetime().defaultRaw('now()').index('teams_created_at_index'),
    updatedAt: p.datetime().defaultRaw('now()'),
    disbandedAt: p.datetime().nullable(),
  },
  uniques: [
    {
      name: 'teams_name_lower_unique',
      expression: `create unique index "teams_name_lower_unique" on "teams" (lower("name")) where "disbanded_at" is null`,
    },
    {
      name: 'teams_tag_lower_unique',
      expression: `create unique index "teams_tag_lower_unique" on "teams" (lower("tag")) where "disbanded_at" is null`,
    },
  ],
  checks: [{ name: 'teams_version_check', expression: 'version >= 1' }],
});
export type TeamEntity = InferEntity<typeof Team>;
