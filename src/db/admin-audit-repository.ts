import type { EmSource, EntityManager } from './orm';

/**
 * One admin action. `before` and `after` are the target's state around the change (null where
 * there was none: a creation, a deletion), so the log alone says what an action did.
 */
export interface AdminAuditEntry {
  /** The admin who acted; null only if that account was later removed. */
  actorId: number | null;
  /** What was done, "<area>.<verb>": "points.award", "bans.create"... */
  action: string;
  /** The kind of record acted on ("user", "lobby"...) and its id. */
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
  reason: string | null;
}

export interface AuditFilter {
  actorId?: number;
  targetType?: string;
  targetId?: string;
  action?: string;
  limit: number;
  /** 1-indexed. */
  page: number;
}

export interface AdminAuditRecord extends AdminAuditEntry {
  id: number;
  createdAt: Date;
}

/** The admin audit log: append-only, written in the same transaction as the change it records. */
export class AdminAuditRepository {
  constructor(private readonly db: EmSource) {}

  /** Writes the row inside the caller's transaction; answers its id. */
  static async insertIn(em: EntityManager, entry: AdminAuditEntry): Promise<number> {
    const [row] = await em.execute<{ id: number }[]>(
      `insert into admin_audit (actor_id, action, target_type, target_id, before, after, reason)
       values (?, ?, ?, ?, ?::jsonb, ?::jsonb, ?) returning id`,
      [entry.actorId, entry.action, entry.targetType, entry.targetId, jsonOrNull(entry.before), jsonOrNull(entry.after), entry.reason],
    );
    return row.id;
  }

  async insert(entry: AdminAuditEntry): Promise<number> {
    return this.db.em().transactional((em) => AdminAuditRepository.insertIn(em, entry));
  }

  /** One page, newest first, of the rows that match every filter given. */
  async list(filter: AuditFilter): Promise<{ entries: AdminAuditRecord[]; total: number }> {
    const conditions: Array<[string, unknown]> = [];
    if (filter.actorId !== undefined) conditions.push(['actor_id = ?', filter.actorId]);
    if (filter.targetType !== undefined) conditions.push(['target_type = ?', filter.targetType]);
    if (filter.targetId !== undefined) conditions.push(['target_id = ?', filter.targetId]);
    if (filter.action !== undefined) conditions.push(['action = ?', filter.action]);
    const where = conditions.length > 0 ? `where ${conditions.map(([sql]) => sql).join(' and ')}` : '';
    const params = conditions.map(([, value]) => value);
    const em = this.db.em();
    const [rows, [{ total }]] = await Promise.all([
      em.execute<AuditRow[]>(
        `select id, actor_id, action, target_type, target_id, before, after, reason, created_at
         from admin_audit ${where} order by id desc limit ? offset ?`,
        [...params, filter.limit, (filter.page - 1) * filter.limit],
      ),
      em.execute<{ total: number }[]>(`select count(*)::int as total from admin_audit ${where}`, params),
    ]);
    return { entries: rows.map(toRecord), total };
  }
}

interface AuditRow {
  id: number;
  actor_id: number | null;
  action: string;
  target_type: string;
  target_id: string;
  before: unknown;
  after: unknown;
  reason: string | null;
  created_at: Date | string;
}

const jsonOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

function toRecord(row: AuditRow): AdminAuditRecord {
  return {
    id: row.id,
    actorId: row.actor_id,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    before: row.before,
    after: row.after,
    reason: row.reason,
    createdAt: new Date(row.created_at),
  };
}
