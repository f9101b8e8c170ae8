import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Team } from './team';
import { User } from './user';

/** An invitation to join a team; at most one pending per team and user (a partial unique index). */
export const TeamInvite = defineEntity({
  name: 'TeamInvite',
  tableName: 'team_invites',
  properties: {
    id: p.integer().primary(),
    team: () => p.manyToOne(Team).mapToPk(),
    user: () => p.manyToOne(User).mapToPk(),
    fromUser: () => p.manyToOne(User).mapToPk(),
    status: p.enum(['pending', 'accepted', 'declined', 'cancelled'] as const).default('pending'),
    createdAt: p.datetime().defaultRaw('now()'),
    decidedAt: p.datetime().nullable(),
  },
  uniques: [
    {
      name: 'team_invites_pending_unique',
      expression: `create unique index "team_invites_pending_unique" on "team_invites" ("team_id", "user_id") where "status" = 'pending'`,
    },
  ],
  indexes: [
    {
      name: 'team_invites_user_id_index',
      expression: `create index "team_invites_user_id_index" on "team_invites" ("user_id") where "status" = 'pending'`,
    },
  ],
});
export type TeamInviteEntity = InferEntity<typeof TeamInvite>;
