import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/** A ban is active from created_at until expires_at (null: forever) unless lifted earlier. */
export const Ban = defineEntity({
  name: 'Ban',
  tableName: 'bans',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).mapToPk().index('bans_user_id_index'),
    reason: p.text(),
    createdBy: () => p.manyToOne(User).mapToPk().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    expiresAt: p.datetime().nullable(),
    liftedAt: p.datetime().nullable(),
  },
});
export type BanEntity = InferEntity<typeof Ban>;
