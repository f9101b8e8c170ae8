import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/** Every admin action: who did what to which record, with the record before and after. */
export const AdminAudit = defineEntity({
  name: 'AdminAudit',
  tableName: 'admin_audit',
  properties: {
    id: p.integer().primary(),
    actor: () => p.manyToOne(User).mapToPk().nullable().deleteRule('set null'),
    action: p.string().length(64),
    targetType: p.string().length(32),
    targetId: p.string().length(64),
    before: p.json().nullable(),
    after: p.json().nullable(),
    reason: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()').index('admin_audit_created_at_index'),
  },
  indexes: [
    { name: 'admin_audit_target_type_target_id_index', properties: ['targetType', 'targetId'] },
    // The audit route filters by actor (migration 0008).
    { name: 'admin_audit_actor_id_index', properties: ['actor'] },
  ],
});
export type AdminAuditEntity = InferEntity<typeof AdminAudit>;
