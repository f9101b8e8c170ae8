import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/**
 * One admin action: who did what to which target, with the target before and after, append-only.
 * Read newest first, filtered by actor or target: the (actor, id) and (target_type, target_id, id)
 * indexes serve those scans backwards.
 */
export const AdminAudit = defineEntity({
  name: 'AdminAudit',
  tableName: 'admin_audit',
  properties: {
    id: p.integer().primary(),
    actor: () => p.manyToOne(User).mapToPk(),
    action: p.string().length(64),
    targetType: p.string().length(32),
    targetId: p.string().length(64),
    before: p.json().nullable(),
    after: p.json().nullable(),
    reason: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
  indexes: [
    { name: 'admin_audit_actor_id_id_index', properties: ['actor', 'id'] },
    { name: 'admin_audit_target_type_target_id_id_index', properties: ['targetType', 'targetId', 'id'] },
  ],
});
export type AdminAuditEntity = InferEntity<typeof AdminAudit>;
