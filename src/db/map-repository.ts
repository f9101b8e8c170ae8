import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EmSource } from './orm';

export type MapStatus = 'processing' | 'active' | 'rejected';

export interface MapRecord {
  id: number;
  name: string;
  displayName: string;
  sizeBytes: number | null;
  sha256: string | null;
  uploaderId: number;
  status: MapStatus;
  rejectionReason: string | null;
  createdAt: Date;
  deletedAt: Date | null;
  uploadRef: string | null;
}

interface MapRow {
  id: number;
  name: string;
  display_name: string;
  size_bytes: string | number | null;
  sha256: string | null;
  uploader_id: number;
  status: MapStatus;
  rejection_reason: string | null;
  created_at: Date | string;
  deleted_at: Date | string | null;
  upload_ref: string | null;
}

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

function toMapRecord(row: MapRow): MapRecord {
  return {
    id: row.id,
    name: row.name,
    displayName: row.display_name,
    sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
    sha256: row.sha256,
    uploaderId: row.uploader_id,
    status: row.status,
    rejectionReason: row.rejection_reason,
    createdAt: toDate(row.created_at),
    deletedAt: row.deleted_at === null ? null : toDate(row.deleted_at),
    uploadRef: row.upload_ref,
  };
}

/** A name stays claimed while a row for it is processing or active and not deleted. */
const LIVE = `"status" in ('processing', 'active') and "deleted_at" is null`;
const ACTIVE = `"status" = 'active' and "deleted_at" is null`;

export type ClaimResult = { ok: true; map: MapRecord } | { ok: false; holder: MapRecord };
export type ActivateResult = { ok: true; map: MapRecord } | { ok: false; sameContent: MapRecord | null };

/**
 * The maps table. The unique partial indexes of migration 0005 are what make "one live row per
 * name" and "one active row per content" hold across instances; these methods lean on them
 * (insert ... on conflict do nothing, and a caught unique violation) rather than check-then-act.
 */
export class MapRepository {
  constructor(private readonly db: EmSource) {}

  /** Inserts a `processing` row for the name, or tells who holds it (processing or active). */
  async claim(input: { name: string; displayName: string; uploaderId: number; uploadRef: string; at: Date }): Promise<ClaimResult> {
    const em = this.db.em();
    const inserted = await em.execute<MapRow[]>(
      `insert into "maps" ("name", "display_name", "uploader_id", "upload_ref", "status", "created_at")
       values (?, ?, ?, ?, 'processing', ?)
       on conflict ("name") where ${LIVE} do nothing
       returning *`,
      [input.name, input.displayName, input.uploaderId, input.uploadRef, input.at],
    );
    if (inserted.length === 1) return { ok: true, map: toMapRecord(inserted[0]) };
    const [holder] = await em.execute<MapRow[]>(`select * from "maps" where "name" = ? and ${LIVE}`, [input.name]);
    // The holder may have been rejected or deleted in between: then the name is free again.
    return holder ? { ok: false, holder: toMapRecord(holder) } : this.claim(input);
  }

  /** processing -> active with the stored file's facts; refused when that content went active meanwhile. */
  async activate(id: number, facts: { sizeBytes: number; sha256: string; displayName: string }): Promise<ActivateResult> {
    const em = this.db.em();
    try {
      const rows = await em.execute<MapRow[]>(
        `update "maps" set "status" = 'active', "size_bytes" = ?, "sha256" = ?, "display_name" = ?
         where "id" = ? and "status" = 'processing' returning *`,
        [facts.sizeBytes, facts.sha256, facts.displayName, id],
      );
      if (rows.length === 1) return { ok: true, map: toMapRecord(rows[0]) };
      return { ok: false, sameContent: null };
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      return { ok: false, sameContent: await this.findActiveBySha256(facts.sha256) };
    }
  }

  /** processing -> rejected; false when the row had already left processing. */
  async reject(id: number, reason: string, sizeBytes?: number, sha256?: string): Promise<boolean> {
    const rows = await this.db.em().execute<MapRow[]>(
      `update "maps" set "status" = 'rejected', "rejection_reason" = ?, "size_bytes" = coalesce(?, "size_bytes"), "sha256" = coalesce(?, "sha256")
       where "id" = ? and "status" = 'processing' returning "id"`,
      [reason, sizeBytes ?? null, sha256 ?? null, id],
    );
    return rows.length === 1;
  }

  /** Every upload still streaming (or orphaned by a process that died). */
  async listProcessing(): Promise<MapRecord[]> {
    const rows = await this.db.em().execute<MapRow[]>(`select * from "maps" where "status" = 'processing' order by "id"`);
    return rows.map(toMapRecord);
  }

  async findActiveBySha256(sha256: string): Promise<MapRecord | null> {
    const [row] = await this.db.em().execute<MapRow[]>(`select * from "maps" where "sha256" = ? and ${ACTIVE}`, [sha256]);
    return row ? toMapRecord(row) : null;
  }

  /** An active, undeleted map. */
  async findActive(id: number): Promise<MapRecord | null> {
    const [row] = await this.db.em().execute<MapRow[]>(`select * from "maps" where "id" = ? and ${ACTIVE}`, [id]);
    return row ? toMapRecord(row) : null;
  }

  async findById(id: number): Promise<MapRecord | null> {
    const [row] = await this.db.em().execute<MapRow[]>(`select * from "maps" where "id" = ?`, [id]);
    return row ? toMapRecord(row) : null;
  }

  /** Newest first. */
  async listActive(): Promise<MapRecord[]> {
    const rows = await this.db.em().execute<MapRow[]>(`select * from "maps" where ${ACTIVE} order by "id" desc`);
    return rows.map(toMapRecord);
  }

  async activeNames(): Promise<string[]> {
    const rows = await this.db.em().execute<Array<{ name: string }>>(`select "name" from "maps" where ${ACTIVE} order by "name"`);
    return rows.map((r) => r.name);
  }

  /** Marks an active map deleted; false when it is unknown, not active or already deleted (a race lost). */
  async markDeleted(id: number, at: Date): Promise<boolean> {
    const rows = await this.db.em().execute<MapRow[]>(`update "maps" set "deleted_at" = ? where "id" = ? and ${ACTIVE} returning "id"`, [at, id]);
    return rows.length === 1;
  }
}
