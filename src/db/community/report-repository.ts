import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Report } from '../../../schema/community';
import { conflict } from '../../domain/domain-error';
import type { EmSource, EntityManager } from '../orm';
import { offsetOf, type Paged } from './forum-rows';

type ReportStatus = Report['status'];

interface ReportRow {
  id: number;
  post_id: number;
  thread_id: number;
  reporter_id: number;
  reason: string;
  status: ReportStatus;
  created_at: Date;
  resolved_by_id: number | null;
  resolved_at: Date | null;
  resolution_reason: string | null;
}

const SELECT = `select r.id, r.post_id, p.thread_id, r.reporter_id, r.reason, r.status, r.created_at, r.resolved_by_id, r.resolved_at, r.resolution_reason
  from community_reports r join community_posts p on p.id = r.post_id`;

export function toReport(row: ReportRow): Report {
  return {
    id: row.id,
    post_id: row.post_id,
    thread_id: row.thread_id,
    reporter_id: row.reporter_id,
    reason: row.reason,
    status: row.status,
    created_at: new Date(row.created_at).toISOString(),
    resolved_by: row.resolved_by_id,
    resolved_at: row.resolved_at ? new Date(row.resolved_at).toISOString() : null,
    resolution_reason: row.resolution_reason,
  };
}

/** Reports on posts: one per reporter and post, open until an admin resolves it. */
export class ReportRepository {
  constructor(private readonly db: EmSource) {}

  async create(postId: number, reporterId: number, reason: string): Promise<{ id: number; status: ReportStatus }> {
    try {
      const [row] = await this.db
        .em()
        .execute<{ id: number; status: ReportStatus }[]>('insert into community_reports (post_id, reporter_id, reason) values (?, ?, ?) returning id, status', [postId, reporterId, reason]);
      return row;
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw conflict('you have already reported this post');
      throw error;
    }
  }

  async page(status: ReportStatus, page: number, limit: number): Promise<Paged<Report>> {
    const em = this.db.em();
    const [rows, [count]] = await Promise.all([
      em.execute<ReportRow[]>(`${SELECT} where r.status = ? order by r.id limit ? offset ?`, [status, limit, offsetOf(page, limit)]),
      em.execute<{ n: number }[]>('select count(*)::int as n from community_reports where status = ?', [status]),
    ]);
    return { rows: rows.map(toReport), total: count.n };
  }

  async lockOpen(em: EntityManager, id: number): Promise<Report | null> {
    const [row] = await em.execute<ReportRow[]>(`${SELECT} where r.id = ? for update of r`, [id]);
    return row ? toReport(row) : null;
  }

  async resolve(em: EntityManager, id: number, input: { status: ReportStatus; adminId: number; reason: string; at: Date }): Promise<Report> {
    await em.execute('update community_reports set status = ?, resolved_by_id = ?, resolved_at = ?, resolution_reason = ? where id = ?', [
      input.status, input.adminId, input.at, input.reason, id,
    ]);
    const [row] = await em.execute<ReportRow[]>(`${SELECT} where r.id = ?`, [id]);
    return toReport(row);
  }
}
