import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/**
 * One request for an admin's decision, of any kind (src/approvals/): `subject` is what would
 * change, in the kind's own shape. `kind` has no CHECK so a new kind needs no migration. A pending
 * row's `subject_key` names the change it would make, unique among pending rows of its kind.
 */
export const Approval = defineEntity({
  name: 'Approval',
  tableName: 'approvals',
  properties: {
    id: p.integer().primary(),
    kind: p.string().length(32),
    status: p.enum(['pending', 'approved', 'denied'] as const).default('pending'),
    subject: p.json(),
    subjectKey: p.string().length(128).nullable(),
    requestedBy: () => p.manyToOne(User).mapToPk().nullable().deleteRule('set null'),
    createdAt: p.datetime().defaultRaw('now()'),
    decidedBy: () => p.manyToOne(User).mapToPk().nullable().deleteRule('set null'),
    decidedAt: p.datetime().nullable(),
    reason: p.text().nullable(),
  },
  uniques: [
    {
      name: 'approvals_pending_subject_key_unique',
      expression: `create unique index "approvals_pending_subject_key_unique" on "approvals" ("kind", "subject_key") where "status" = 'pending' and "subject_key" is not null`,
    },
  ],
  indexes: [
    { name: 'approvals_status_kind_id_index', properties: ['status', 'kind', 'id'] },
    { name: 'approvals_requested_by_id_index', properties: ['requestedBy', 'id'] },
  ],
  checks: [{ name: 'approvals_decided_check', expression: '("status" = \'pending\') = ("decided_at" is null)' }],
});
export type ApprovalEntity = InferEntity<typeof Approval>;
