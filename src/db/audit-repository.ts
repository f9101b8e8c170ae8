import { ApiKeyAudit } from './entities';
import type { EmSource } from './orm';

export interface ApiKeyAuditRow {
  keyId: number;
  endpoint: string;
  method: string;
  /** A hash of the client address, never the address itself. */
  clientHash: string;
  status: number;
  createdAt: Date;
}

export interface ApiKeyAuditRecord extends ApiKeyAuditRow {
  id: number;
}

/** The per-key request log. Writes come in batches from a buffer, reads newest first. */
export class AuditRepository {
  constructor(private readonly db: EmSource) {}

  /** One INSERT for the whole batch. */
  async insertMany(rows: readonly ApiKeyAuditRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.em().insertMany(
      ApiKeyAudit,
      rows.map((row) => ({
        key: row.keyId,
        endpoint: row.endpoint,
        method: row.method,
        clientHash: row.clientHash,
        status: row.status,
        createdAt: row.createdAt,
      })),
    );
  }

  /** The newest `perKey` rows of each key, newest first; keys without rows map to []. */
  async lastPerKey(keyIds: readonly number[], perKey = 20): Promise<Map<number, ApiKeyAuditRecord[]>> {
    const result = new Map<number, ApiKeyAuditRecord[]>(keyIds.map((id) => [id, []]));
    if (keyIds.length === 0) return result;
    // One index range scan per key (backwards on (key_id, id)) instead of ranking the whole table.
    const rows = await this.db.em().execute<AuditRow[]>(
      `select a.id, a.key_id, a.endpoint, a.method, a.client_hash, a.status, a.created_at
       from (select distinct unnest(array[?]::int[]) as key_id) as k
       cross join lateral (
         select * from api_key_audit x where x.key_id = k.key_id order by x.id desc limit ?
       ) as a
       order by a.key_id, a.id desc`,
      [[...keyIds], perKey],
    );
    for (const row of rows) {
      result.get(row.key_id)?.push({
        id: row.id,
        keyId: row.key_id,
        endpoint: row.endpoint,
        method: row.method,
        clientHash: row.client_hash,
        status: row.status,
        createdAt: new Date(row.created_at),
      });
    }
    return result;
  }
}

interface AuditRow {
  id: number;
  key_id: number;
  endpoint: string;
  method: string;
  client_hash: string;
  status: number;
  created_at: string | Date;
}
