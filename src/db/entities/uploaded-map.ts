import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/**
 * A community map upload. `processing` while its bytes stream in and are stored, then `active`
 * or `rejected` (with the reason); a deleted map keeps its row with `deleted_at` set. Two partial
 * unique indexes make the rules hold across instances: one live (processing or active) row per
 * name, so the second of two concurrent uploads of a name is refused at once, and one active row
 * per content hash. Their SQL is in migration 0005; the schema generator compares them by name.
 */
export const UploadedMap = defineEntity({
  name: 'UploadedMap',
  tableName: 'maps',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(64),
    displayName: p.string().length(100),
    sizeBytes: p.bigint('number').nullable(),
    sha256: p.string().length(64).nullable(),
    uploader: () => p.manyToOne(User).mapToPk(),
    status: p.enum(['processing', 'active', 'rejected'] as const),
    rejectionReason: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    deletedAt: p.datetime().nullable(),
    /** Which process streams it while `processing` (src/maps/upload-temp-files.ts), to reject it if that process dies. */
    uploadRef: p.string().length(100).nullable(),
  },
  uniques: [
    {
      name: 'maps_live_name_unique',
      expression: `create unique index "maps_live_name_unique" on "maps" ("name") where "status" in ('processing', 'active') and "deleted_at" is null`,
    },
    {
      name: 'maps_active_sha256_unique',
      expression: `create unique index "maps_active_sha256_unique" on "maps" ("sha256") where "status" = 'active' and "deleted_at" is null`,
    },
  ],
});
export type UploadedMapEntity = InferEntity<typeof UploadedMap>;
