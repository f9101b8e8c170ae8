import type { ChangelogEntry } from '../../schema/public';
import type { AnnouncementBody, AnnouncementPatch, AnnouncementView, ChangelogBody, ChangelogPatch } from '../../schema/admin';
import { AdminAuditRepository } from '../db/admin-audit-repository';
import type { Database, EntityManager } from '../db/orm';
import type { UserRecord } from '../db/user-record';
import { windowProblem } from '../domain/admin/admin-rules';
import { notFound } from '../domain/domain-error';
import type { NotificationOutbox } from '../db/notification-outbox';
import { announcementEvent } from '../domain/notifications/notification-event';

export interface SiteContentDeps {
  db: Pick<Database, 'em'>;
  /** Drops a public-cache topic on every instance: announcements and changelog live under `content`. */
  invalidate: (topic: string) => void;
  clock: () => number;
  /** The notifications outbox: a new announcement is an `announcement.published` event, written in its transaction. */
  outbox?: NotificationOutbox;
}

interface AnnouncementRow {
  id: number;
  title: string;
  body: string;
  level: AnnouncementView['level'];
  starts_at: Date | string;
  ends_at: Date | string | null;
  created_at: Date | string;
}

interface ChangelogRow {
  id: number;
  version: string | null;
  title: string;
  body: string;
  created_at: Date | string;
}

const iso = (value: Date | string) => new Date(value).toISOString();

const toAnnouncement = (row: AnnouncementRow): AnnouncementView => ({
  id: row.id,
  title: row.title,
  body: row.body,
  level: row.level,
  starts_at: iso(row.starts_at),
  ends_at: row.ends_at === null ? null : iso(row.ends_at),
  created_at: iso(row.created_at),
});

const toChangelog = (row: ChangelogRow): ChangelogEntry => ({
  id: row.id, version: row.version, title: row.title, body: row.body, created_at: iso(row.created_at),
});

/**
 * Announcements and changelog entries as admins write them. The public reads show them from a
 * 30 s cache, which every change drops on every instance, so a publication shows at once.
 */
export class SiteContentAdmin {
  constructor(private readonly deps: SiteContentDeps) {}

  async listAnnouncements(): Promise<AnnouncementView[]> {
    const rows = await this.deps.db.em().execute<AnnouncementRow[]>('select * from announcements order by id desc limit 500');
    return rows.map(toAnnouncement);
  }

  createAnnouncement(actor: UserRecord, body: AnnouncementBody): Promise<AnnouncementView> {
    const startsAt = body.starts_at ? Date.parse(body.starts_at) : this.deps.clock();
    const endsAt = body.ends_at ? Date.parse(body.ends_at) : null;
    return this.#change(actor, 'announcement.create', 'announcement', async (em, now) => {
      const problem = windowProblem(startsAt, endsAt);
      if (problem) throw problem;
      const [row] = await em.execute<AnnouncementRow[]>(
        'insert into announcements (title, body, level, starts_at, ends_at, created_at) values (?, ?, ?, ?, ?, ?) returning *',
        [body.title, body.body, body.level, new Date(startsAt), endsAt === null ? null : new Date(endsAt), now],
      );
      // A scheduled announcement is news when its window opens: its deliveries are first due then.
      const event = announcementEvent(toAnnouncement(row));
      await this.deps.outbox?.enqueueIn(em, [startsAt > now.getTime() ? { ...event, dueAt: new Date(startsAt) } : event]);
      return { id: row.id, before: null, after: toAnnouncement(row) };
    });
  }

  updateAnnouncement(actor: UserRecord, id: number, patch: AnnouncementPatch): Promise<AnnouncementView> {
    return this.#change(actor, 'announcement.update', 'announcement', async (em) => {
      const [row] = await em.execute<AnnouncementRow[]>('select * from announcements where id = ? for update', [id]);
      if (!row) throw notFound('announcement not found');
      const next = {
        title: patch.title ?? row.title,
        body: patch.body ?? row.body,
        level: patch.level ?? row.level,
        startsAt: patch.starts_at ? new Date(patch.starts_at) : new Date(row.starts_at),
        endsAt: patch.ends_at === undefined ? (row.ends_at === null ? null : new Date(row.ends_at)) : patch.ends_at === null ? null : new Date(patch.ends_at),
      };
      const problem = windowProblem(next.startsAt.getTime(), next.endsAt?.getTime() ?? null);
      if (problem) throw problem;
      const [updated] = await em.execute<AnnouncementRow[]>(
        'update announcements set title = ?, body = ?, level = ?, starts_at = ?, ends_at = ? where id = ? returning *',
        [next.title, next.body, next.level, next.startsAt, next.endsAt, id],
      );
      const event = announcementEvent(toAnnouncement(updated));
      await this.deps.outbox?.rescheduleIn?.(em, event.key, next.startsAt, event.payload);
      return { id, before: toAnnouncement(row), after: toAnnouncement(updated) };
    });
  }

  deleteAnnouncement(actor: UserRecord, id: number): Promise<null> {
    return this.#change(actor, 'announcement.delete', 'announcement', async (em) => {
      const [row] = await em.execute<AnnouncementRow[]>('delete from announcements where id = ? returning *', [id]);
      if (!row) throw notFound('announcement not found');
      await this.deps.outbox?.rescheduleIn?.(em, announcementEvent(toAnnouncement(row)).key, null);
      return { id, before: toAnnouncement(row), after: null };
    });
  }

  createChangelog(actor: UserRecord, body: ChangelogBody): Promise<ChangelogEntry> {
    return this.#change(actor, 'changelog.create', 'changelog', async (em, now) => {
      const [row] = await em.execute<ChangelogRow[]>(
        'insert into changelog_entries (version, title, body, created_at) values (?, ?, ?, ?) returning *',
        [body.version ?? null, body.title, body.body, now],
      );
      return { id: row.id, before: null, after: toChangelog(row) };
    });
  }

  updateChangelog(actor: UserRecord, id: number, patch: ChangelogPatch): Promise<ChangelogEntry> {
    return this.#change(actor, 'changelog.update', 'changelog', async (em) => {
      const [row] = await em.execute<ChangelogRow[]>('select * from changelog_entries where id = ? for update', [id]);
      if (!row) throw notFound('changelog entry not found');
      const [updated] = await em.execute<ChangelogRow[]>(
        'update changelog_entries set version = ?, title = ?, body = ? where id = ? returning *',
        [patch.version === undefined ? row.version : patch.version, patch.title ?? row.title, patch.body ?? row.body, id],
      );
      return { id, before: toChangelog(row), after: toChangelog(updated) };
    });
  }

  deleteChangelog(actor: UserRecord, id: number): Promise<null> {
    return this.#change(actor, 'changelog.delete', 'changelog', async (em) => {
      const [row] = await em.execute<ChangelogRow[]>('delete from changelog_entries where id = ? returning *', [id]);
      if (!row) throw notFound('changelog entry not found');
      return { id, before: toChangelog(row), after: null };
    });
  }

  /** One change and its audit row in one transaction, then the public cache dropped everywhere. */
  async #change<T>(
    actor: UserRecord,
    action: string,
    targetType: string,
    apply: (em: EntityManager, now: Date) => Promise<{ id: number; before: unknown; after: T }>,
  ): Promise<T> {
    const now = new Date(this.deps.clock());
    const after = await this.deps.db.em().transactional(async (em) => {
      const change = await apply(em, now);
      await AdminAuditRepository.insertIn(em, { actorId: actor.id, action, targetType, targetId: String(change.id), before: change.before, after: change.after, reason: null });
      return change.after;
    });
    this.deps.invalidate('content');
    return after;
  }
}
