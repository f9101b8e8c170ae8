import { ForeignKeyConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Category, CategoryCreateBody, CategoryPatchBody } from '../../../schema/community';
import { conflict, notFound } from '../../domain/domain-error';
import { AdminAuditRepository } from '../admin-audit-repository';
import type { EmSource, EntityManager } from '../orm';

interface CategoryRow {
  id: number;
  slug: string;
  name: string;
  description: string;
  position: number;
  admin_only_posting: boolean;
  thread_count: number;
}

const SELECT = `select c.id, c.slug, c.name, c.description, c.position, c.admin_only_posting,
  (select count(*)::int from community_threads t where t.category_id = c.id and t.hidden = false and t.deleted_at is null and t.pending = false) as thread_count
  from community_categories c`;

const toCategory = (row: CategoryRow): Category => ({ ...row });

/** Categories: reads for everyone, and the admin's changes, each with its audit row in one transaction. */
export class CategoryRepository {
  constructor(private readonly db: EmSource) {}

  async list(): Promise<Category[]> {
    return (await this.db.em().execute<CategoryRow[]>(`${SELECT} order by c.position, c.id`)).map(toCategory);
  }

  async byId(id: number, em: EntityManager = this.db.em()): Promise<Category | null> {
    const [row] = await em.execute<CategoryRow[]>(`${SELECT} where c.id = ?`, [id]);
    return row ? toCategory(row) : null;
  }

  async bySlug(slug: string): Promise<Category | null> {
    const [row] = await this.db.em().execute<CategoryRow[]>(`${SELECT} where c.slug = ?`, [slug]);
    return row ? toCategory(row) : null;
  }

  async create(adminId: number, body: CategoryCreateBody): Promise<Category> {
    return this.#audited(async (em) => {
      const [{ id }] = await em.execute<{ id: number }[]>(
        `insert into community_categories (slug, name, description, position, admin_only_posting) values (?, ?, ?, ?, ?) returning id`,
        [body.slug, body.name, body.description, body.position, body.admin_only_posting],
      );
      const after = (await this.byId(id, em))!;
      await AdminAuditRepository.insertIn(em, { actorId: adminId, action: 'community.category.create', targetType: 'community_category', targetId: String(id), before: null, after, reason: null });
      return after;
    });
  }

  async update(adminId: number, id: number, patch: CategoryPatchBody): Promise<Category> {
    return this.#audited(async (em) => {
      const before = await this.#locked(em, id);
      await em.execute(
        `update community_categories set slug = coalesce(?, slug), name = coalesce(?, name), description = coalesce(?, description),
         position = coalesce(?, position), admin_only_posting = coalesce(?, admin_only_posting) where id = ?`,
        [patch.slug ?? null, patch.name ?? null, patch.description ?? null, patch.position ?? null, patch.admin_only_posting ?? null, id],
      );
      const after = (await this.byId(id, em))!;
      await AdminAuditRepository.insertIn(em, { actorId: adminId, action: 'community.category.update', targetType: 'community_category', targetId: String(id), before, after, reason: null });
      return after;
    });
  }

  /** Refused (409) while any thread, even a deleted one, still points at it: the foreign key decides, so no race slips one in. */
  async delete(adminId: number, id: number): Promise<void> {
    await this.#audited(async (em) => {
      const before = await this.#locked(em, id);
      await em.execute('delete from community_categories where id = ?', [id]);
      await AdminAuditRepository.insertIn(em, { actorId: adminId, action: 'community.category.delete', targetType: 'community_category', targetId: String(id), before, after: null, reason: null });
    });
  }

  async #locked(em: EntityManager, id: number): Promise<Category> {
    const [row] = await em.execute<{ id: number }[]>('select id from community_categories where id = ? for update', [id]);
    if (!row) throw notFound('category not found');
    return (await this.byId(id, em))!;
  }

  async #audited<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.db.em().transactional(work);
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw conflict('a category with this slug exists');
      if (error instanceof ForeignKeyConstraintViolationException) throw conflict('the category holds threads');
      throw error;
    }
  }
}
