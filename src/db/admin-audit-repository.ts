import type { AdminAuditEntry } from '../../schema/admin';
import type { EmSource, EntityManager } from './orm';

export interface AuditInput {
  actorId: number;
  /** `ban.create`, `ban.lift`, `user.elo`, `announcement.update`, `lobby.force_end`, ... */
  action: string;
  targetType: string;
  targetId: string | number;
  before: unknown;
  after: unknown;
  reason: string | null;
  at: Date;
}

export interface AuditFilter {
  actorId?: number;
  targetType?: string;
  targetId?: string;
  action?: string;
  limit: number;
  page: number;
}

interface AuditRow {
  id: number;
  actor_id: number;
  action: string;
  target_type: string;
  target_id: string;
  before: unknown;
  after: unknown;
  reason: string | null;
  created_at: Date | string;
}

/** The append-only audit of admin actions; written inside the action's own transaction. */
export class AdminAuditRepository {
  constructor(private readonly db: EmSource) {}

  async record(em: EntityManager, entry: AuditInput): Promise<void> {
    await em.execute(
      `insert into admin_audit (actor_id, action, target_type, target_id, before, after, reason, created_at)
       values (?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?)`,
      [entry.actorId, entry.action, entry.targetType, String(entry.targetId), json(entry.before), json(entry.after), entry.reason, entry.at],
    );
  }

  /** Newest first. */
  async list(filter: AuditFilter): Promise<{ entries: AdminAuditEntry[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      where.push(sql);
      params.push(value);
    };
    if (filter.actorId !== undefined) add('actor_id = ?', filter.actorId);
    if (filter.targetType !== undefined) add('target_type = ?', filter.targetType);
    if (filter.targetId !== undefined) add('target_id = ?', filter.targetId);
    if (filter.action !== undefined) add('action = ?', filter.action);
    const clause = where.length > 0 ? `where ${where.join(' and ')}` : '';
    const em = this.db.em();
    const [rows, [{ total }]] = await Promise.all([
      em.execute<AuditRow[]>(`select * from admin_audit ${clause} order by id desc limit ? offset ?`, [
        ...params, filter.limit, (filter.page - 1) * filter.limit,
      ]),
      em.execute<{ total: number }[]>(`select count(*)::int as total from admin_audit ${clause}`, params),
    ]);
    return { entries: rows.map(toEntry), total };
  }
}

const json = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));

function toEntry(row: AuditRow): AdminAuditEntry {
  return {
    id: row.id,
    actor_id: row.actor_id,
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    before: row.before ?? null,
    after: row.after ?? null,
    reason: row.reason,
    created_at: new Date(row.created_at).toISOString(),
  };
}
