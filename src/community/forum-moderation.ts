import type { ReportResolveBody, ThreadAdminPatchBody, ThreadSummary } from '../../schema/community';
import { AdminAuditRepository } from '../db/admin-audit-repository';
import type { CategoryRepository } from '../db/community/category-repository';
import type { ForumReads } from '../db/community/forum-reads';
import { ForumWrites } from '../db/community/forum-writes';
import type { ReportRepository } from '../db/community/report-repository';
import type { EmSource } from '../db/orm';
import { conflict, forbidden, notFound } from '../domain/domain-error';
import { canSeeThread } from '../domain/community/forum-rules';
import type { Caller } from '../identity/caller';
import type { BanAuthor } from './forum-ports';
import { forumActor, threadFacts, type ForumService } from './forum-service';
import { toThreadSummary } from './forum-views';

export interface ForumModerationDeps {
  db: EmSource;
  reads: ForumReads;
  categories: CategoryRepository;
  reports: ReportRepository;
  forum: ForumService;
  banAuthor: BanAuthor;
  isBanned: (userId: number) => Promise<boolean>;
  clock: () => number;
}

const RESOLVED_AS = { dismiss: 'dismissed', delete_post: 'post_deleted', ban_author: 'author_banned' } as const;

/** What admins do to the forum (threads, reports) and what users do to flag a post; every admin action with its audit row. */
export class ForumModeration {
  constructor(private readonly deps: ForumModerationDeps) {}

  async patchThread(caller: Caller, threadId: number, patch: ThreadAdminPatchBody): Promise<ThreadSummary> {
    const admin = forumActor(caller);
    if (patch.category_id !== undefined && !(await this.deps.categories.byId(patch.category_id))) throw notFound('category not found');
    return this.deps.db.em().transactional(async (em) => {
      const before = await this.deps.reads.thread(threadId, em, true);
      if (!before || before.deleted_at !== null) throw notFound('thread not found');
      await ForumWrites.patchThread(em, threadId, { pinned: patch.pinned, locked: patch.locked, hidden: patch.hidden, categoryId: patch.category_id });
      const after = toThreadSummary((await this.deps.reads.thread(threadId, em))!);
      await AdminAuditRepository.insertIn(em, {
        actorId: admin.id, action: 'community.thread.update', targetType: 'community_thread', targetId: String(threadId), before: toThreadSummary(before), after, reason: null,
      });
      return after;
    });
  }

  async report(caller: Caller, postId: number, reason: string) {
    const actor = forumActor(caller);
    if (await this.deps.isBanned(actor.id)) throw forbidden('you are banned');
    const post = await this.deps.reads.post(postId);
    const thread = post && (await this.deps.reads.thread(post.thread_id));
    if (!post || post.deleted_at !== null || post.pending || !thread || !canSeeThread(threadFacts(thread), actor)) throw notFound('post not found');
    return this.deps.reports.create(postId, actor.id, reason);
  }

  async reports(status: 'open' | 'dismissed' | 'post_deleted' | 'author_banned', page: number, limit: number) {
    const { rows, total } = await this.deps.reports.page(status, page, limit);
    return { reports: rows, total, page, limit };
  }

  /**
   * One resolution per report: the report row is locked and must still be open. `delete_post`
   * deletes in the same transaction; `ban_author` claims the report first and then bans through
   * the admin area (its own transaction and audit), giving the claim back if the ban is refused,
   * so two admins resolving at once ban once.
   */
  async resolve(caller: Caller, reportId: number, body: ReportResolveBody) {
    const admin = forumActor(caller);
    const at = new Date(this.deps.clock());
    const resolved = await this.deps.db.em().transactional(async (em) => {
      const report = await this.deps.reports.lockOpen(em, reportId);
      if (!report) throw notFound('report not found');
      if (report.status !== 'open') throw conflict('the report is already resolved');
      let deleted = null;
      if (body.action === 'delete_post') {
        const post = await this.deps.reads.post(report.post_id, em);
        // A post its author already deleted needs no second delete; the report still closes.
        if (post && post.deleted_at === null) deleted = await this.deps.forum.deletePostIn(em, report.post_id, admin);
      }
      const after = await this.deps.reports.resolve(em, reportId, { status: RESOLVED_AS[body.action], adminId: admin.id, reason: body.reason, at });
      await AdminAuditRepository.insertIn(em, {
        actorId: admin.id, action: `community.report.${body.action}`, targetType: 'community_report', targetId: String(reportId), before: report, after, reason: body.reason,
      });
      return { report: after, deleted };
    });
    if (resolved.deleted) this.deps.forum.published(resolved.deleted);
    if (body.action === 'ban_author') {
      const post = (await this.deps.reads.post(resolved.report.post_id))!;
      try {
        await this.deps.banAuthor(caller, { user_id: post.author_id, reason: body.reason, ...(body.expires_at ? { expires_at: body.expires_at } : {}) });
      } catch (error) {
        await this.deps.db.em().execute(`update community_reports set status = 'open', resolved_by_id = null, resolved_at = null, resolution_reason = null where id = ?`, [reportId]);
        throw error;
      }
    }
    return resolved.report;
  }
}
