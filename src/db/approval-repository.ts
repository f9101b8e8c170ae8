import type { EmSource, EntityManager } from './orm';

export type ApprovalStatus = 'pending' | 'approved' | 'denied';

export interface ApprovalRecord {
  id: number;
  kind: string;
  status: ApprovalStatus;
  subject: unknown;
  requestedBy: number | null;
  createdAt: Date;
  decidedBy: number | null;
  decidedAt: Date | null;
  reason: string | null;
}

export interface NewApproval {
  kind: string;
  subject: unknown;
  /** Names the change; a second request of the same pending change answers the first one's id. */
  subjectKey: string | null;
  requestedBy: number | null;
}

export interface ApprovalFilter {
  status?: ApprovalStatus;
  kind?: string;
  requestedBy?: number;
  page: number;
  limit: number;
}

const COLUMNS = 'id, kind, status, subject, requested_by_id, created_at, decided_by_id, decided_at, reason';

/** The one approvals table, every kind in it (migration 0009). */
export class ApprovalRepository {
  constructor(private readonly db: EmSource) {}

  /**
   * Records a pending approval inside the caller's transaction, or finds the pending one for the
   * same change (its `subjectKey`): asking twice does not queue the change twice.
   */
  static async requestIn(em: EntityManager, approval: NewApproval): Promise<{ id: number; created: boolean }> {
    const [inserted] = await em.execute<{ id: number }[]>(
      `insert into approvals (kind, subject, subject_key, requested_by_id) values (?, ?::jsonb, ?, ?)
       on conflict (kind, subject_key) where status = 'pending' and subject_key is not null do nothing returning id`,
      [approval.kind, JSON.stringify(approval.subject), approval.subjectKey, approval.requestedBy],
    );
    if (inserted) return { id: inserted.id, created: true };
    const [existing] = await em.execute<{ id: number }[]>(`select id from approvals where kind = ? and subject_key = ? and status = 'pending'`, [
      approval.kind,
      approval.subjectKey,
    ]);
    return { id: existing.id, created: false };
  }

  /** The row, locked until the transaction ends: two decisions on one approval take turns. */
  static async lockIn(em: EntityManager, id: number): Promise<ApprovalRecord | null> {
    const [row] = await em.execute<ApprovalRow[]>(`select ${COLUMNS} from approvals where id = ? for update`, [id]);
    return row ? toRecord(row) : null;
  }

  /** Marks a pending approval decided; answers the row as it is now. */
  static async decideIn(em: EntityManager, id: number, status: 'approved' | 'denied', decidedBy: number, at: Date, reason: string | null): Promise<ApprovalRecord> {
    const [row] = await em.execute<ApprovalRow[]>(
      `update approvals set status = ?, decided_by_id = ?, decided_at = ?, reason = ? where id = ? and status = 'pending' returning ${COLUMNS}`,
      [status, decidedBy, at, reason, id],
    );
    if (!row) throw new Error(`approval ${id} was not pending under its lock`);
    return toRecord(row);
  }

  async get(id: number): Promise<ApprovalRecord | null> {
    const [row] = await this.db.em().execute<ApprovalRow[]>(`select ${COLUMNS} from approvals where id = ?`, [id]);
    return row ? toRecord(row) : null;
  }

  /** One page, newest first, of the rows matching every filter given. */
  async list(filter: ApprovalFilter): Promise<{ approvals: ApprovalRecord[]; total: number }> {
    const conditions: Array<[string, unknown]> = [];
    if (filter.status !== undefined) conditions.push(['status = ?', filter.status]);
    if (filter.kind !== undefined) conditions.push(['kind = ?', filter.kind]);
    if (filter.requestedBy !== undefined) conditions.push(['requested_by_id = ?', filter.requestedBy]);
    const where = conditions.length > 0 ? `where ${conditions.map(([sql]) => sql).join(' and ')}` : '';
    const params = conditions.map(([, value]) => value);
    const em = this.db.em();
    const [rows, [{ total }]] = await Promise.all([
      em.execute<ApprovalRow[]>(`select ${COLUMNS} from approvals ${where} order by id desc limit ? offset ?`, [
        ...params,
        filter.limit,
        (filter.page - 1) * filter.limit,
      ]),
      em.execute<{ total: number }[]>(`select count(*)::int as total from approvals ${where}`, params),
    ]);
    return { approvals: rows.map(toRecord), total };
  }
}

interface ApprovalRow {
  id: number;
  kind: string;
  status: ApprovalStatus;
  subject: unknown;
  requested_by_id: number | null;
  created_at: Date | string;
  decided_by_id: number | null;
  decided_at: Date | string | null;
  reason: string | null;
}

function toRecord(row: ApprovalRow): ApprovalRecord {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    subject: row.subject,
    requestedBy: row.requested_by_id,
    createdAt: new Date(row.created_at),
    decidedBy: row.decided_by_id,
    decidedAt: row.decided_at === null ? null : new Date(row.decided_at),
    reason: row.reason,
  };
}
