import type { EmSource, EntityManager } from '../orm';
import { offsetOf, POST_COLUMNS, THREAD_COLUMNS, type Paged, type PostRow, type ThreadRow } from './forum-rows';

/** What every reader may list: not hidden, not deleted, not waiting in the queue. */
const LISTED_THREAD = 't.hidden = false and t.deleted_at is null and t.pending = false';

/**
 * The forum's reads, each one indexed query (plus its count): a category page walks
 * community_threads_listing_index, a thread page community_posts_thread_id_id_index, a user's
 * posts community_posts_author_id_id_index, search the two GIN indexes.
 */
export class ForumReads {
  constructor(private readonly db: EmSource) {}

  async thread(id: number, em: EntityManager = this.db.em(), lock = false): Promise<ThreadRow | null> {
    const [row] = await em.execute<ThreadRow[]>(
      `select ${THREAD_COLUMNS} from community_threads t join users u on u.id = t.author_id where t.id = ?${lock ? ' for update of t' : ''}`,
      [id],
    );
    return row ?? null;
  }

  async post(id: number, em: EntityManager = this.db.em(), lock = false): Promise<PostRow | null> {
    const [row] = await em.execute<PostRow[]>(
      `select ${POST_COLUMNS} from community_posts p join users u on u.id = p.author_id where p.id = ?${lock ? ' for update of p' : ''}`,
      [id],
    );
    return row ?? null;
  }

  /** Pinned first, then newest activity; admins also see hidden threads. */
  async threadsInCategory(categoryId: number, page: number, limit: number, withHidden: boolean): Promise<Paged<ThreadRow>> {
    const where = `t.category_id = ? and ${withHidden ? 't.deleted_at is null and t.pending = false' : LISTED_THREAD}`;
    const em = this.db.em();
    const [rows, [count]] = await Promise.all([
      em.execute<ThreadRow[]>(
        `select ${THREAD_COLUMNS} from community_threads t join users u on u.id = t.author_id
         where ${where} order by t.pinned desc, t.last_post_at desc, t.id desc limit ? offset ?`,
        [categoryId, limit, offsetOf(page, limit)],
      ),
      em.execute<{ n: number }[]>(`select count(*)::int as n from community_threads t where ${where}`, [categoryId]),
    ]);
    return { rows, total: count.n };
  }

  /** A thread's posts in order, deleted ones kept in place; queued ones only once approved. */
  async postsOfThread(threadId: number, page: number, limit: number): Promise<Paged<PostRow>> {
    const em = this.db.em();
    const [rows, [count]] = await Promise.all([
      em.execute<PostRow[]>(
        `select ${POST_COLUMNS} from community_posts p join users u on u.id = p.author_id
         where p.thread_id = ? and p.pending = false order by p.id limit ? offset ?`,
        [threadId, limit, offsetOf(page, limit)],
      ),
      em.execute<{ n: number }[]>('select count(*)::int as n from community_posts p where p.thread_id = ? and p.pending = false', [threadId]),
    ]);
    return { rows, total: count.n };
  }

  /**
   * The posts of the threads written, approved, edited or deleted at `since` or later, oldest
   * first, at most `limit` (queued ones only once approved): what a live feed that lost its
   * messages sends again.
   */
  async postsChangedSince(threadIds: number[], since: Date, limit = 500): Promise<PostRow[]> {
    if (threadIds.length === 0) return [];
    return this.db.em().execute<PostRow[]>(
      `select ${POST_COLUMNS} from community_posts p join users u on u.id = p.author_id
       where p.thread_id in (${threadIds.map(() => '?').join(', ')}) and p.pending = false
         and greatest(p.created_at, p.approved_at, p.edited_at, p.deleted_at) >= ?
       order by greatest(p.created_at, p.approved_at, p.edited_at, p.deleted_at), p.id limit ?`,
      [...threadIds, since, limit],
    );
  }

  /** A user's standing posts in threads anyone may read, newest first (their profile). */
  async postsByAuthor(authorId: number, page: number, limit: number): Promise<Paged<PostRow>> {
    const where = `p.author_id = ? and p.pending = false and p.deleted_at is null and ${LISTED_THREAD}`;
    const em = this.db.em();
    const [rows, [count]] = await Promise.all([
      em.execute<PostRow[]>(
        `select ${POST_COLUMNS} from community_posts p join community_threads t on t.id = p.thread_id join users u on u.id = p.author_id
         where ${where} order by p.id desc limit ? offset ?`,
        [authorId, limit, offsetOf(page, limit)],
      ),
      em.execute<{ n: number }[]>(`select count(*)::int as n from community_posts p join community_threads t on t.id = p.thread_id where ${where}`, [authorId]),
    ]);
    return { rows, total: count.n };
  }

  /** Every post the user ever wrote, queued and deleted ones included (the first-post queue counts them). */
  async postsWrittenBy(authorId: number, em: EntityManager = this.db.em()): Promise<number> {
    const [row] = await em.execute<{ n: number }[]>('select count(*)::int as n from community_posts where author_id = ?', [authorId]);
    return row.n;
  }

  async history(postId: number): Promise<Array<{ body: string; edited_at: Date }>> {
    return this.db.em().execute('select body, edited_at from community_post_edits where post_id = ? order by id', [postId]);
  }

  /**
   * Threads whose title or a standing post matches the words of `q` (Postgres full-text search,
   * English configuration: the expression the GIN indexes were built on), best match first.
   */
  async search(q: string, page: number, limit: number): Promise<Paged<ThreadRow>> {
    const matches = `with query as (select websearch_to_tsquery('english', ?) as q),
      hits as (
        select t.id, ts_rank(to_tsvector('english', t.title), query.q) * 2 as rank
          from community_threads t, query where to_tsvector('english', t.title) @@ query.q and ${LISTED_THREAD}
        union all
        select t.id, ts_rank(to_tsvector('english', p.body), query.q) as rank
          from community_posts p join community_threads t on t.id = p.thread_id, query
          where to_tsvector('english', p.body) @@ query.q and p.deleted_at is null and p.pending = false and ${LISTED_THREAD}
      ),
      ranked as (select id, max(rank) as rank from hits group by id)`;
    const em = this.db.em();
    const [rows, [count]] = await Promise.all([
      em.execute<ThreadRow[]>(
        `${matches} select ${THREAD_COLUMNS} from ranked r join community_threads t on t.id = r.id join users u on u.id = t.author_id
         order by r.rank desc, t.last_post_at desc, t.id desc limit ? offset ?`,
        [q, limit, offsetOf(page, limit)],
      ),
      em.execute<{ n: number }[]>(`${matches} select count(*)::int as n from ranked`, [q]),
    ]);
    return { rows, total: count.n };
  }
}
