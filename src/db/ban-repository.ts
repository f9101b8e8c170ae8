import type { InferEntity } from '@mikro-orm/core';
import type { BanRecord as DomainBan } from '../domain/access/ban';
import { Ban } from './entities';
import type { EmSource, EntityManager } from './orm';

export interface BanRecord {
  id: number;
  userId: number;
  reason: string;
  createdBy: number | null;
  createdAt: Date;
  expiresAt: Date | null;
  liftedAt: Date | null;
}

/** The domain's view of a stored ban: when it starts and ends (src/domain/access/ban.ts). */
export const domainBan = (ban: BanRecord): DomainBan => ({
  startsAt: ban.createdAt.getTime(),
  expiresAt: ban.expiresAt?.getTime() ?? null,
  liftedAt: ban.liftedAt?.getTime() ?? null,
});

/**
 * The domain's rule on the table (banOver and isBanned in src/domain/access/ban.ts), the only SQL
 * forms of it: every `?` is the moment asked about. test/db/ban-rule.test.ts holds them to the
 * domain's answers at each boundary.
 */
const NOT_OVER_SQL = '(expires_at is null or expires_at > ?) and (lifted_at is null or lifted_at > ?)';
const IN_FORCE_SQL = `created_at <= ? and ${NOT_OVER_SQL}`;
const inForce = (now: Date) => ({ sql: IN_FORCE_SQL, params: [now, now, now] });
const notOver = (now: Date) => ({ sql: NOT_OVER_SQL, params: [now, now] });
const COLUMNS = 'id, user_id, reason, created_by_id, created_at, expires_at, lifted_at';

export interface NewBan {
  userId: number;
  reason: string;
  createdBy: number | null;
  at: Date;
  /** Null: until lifted. */
  expiresAt: Date | null;
}

export class BanRepository {
  constructor(private readonly db: EmSource) {}

  /** `em`: the caller's transaction, so the ban and its audit row are written together. */
  async create(ban: NewBan, em: EntityManager = this.db.em()): Promise<BanRecord> {
    const entity = em.create(Ban, {
      user: ban.userId,
      reason: ban.reason,
      createdBy: ban.createdBy,
      createdAt: ban.at,
      expiresAt: ban.expiresAt,
    });
    await em.flush();
    return toBanRecord(entity);
  }

  /**
   * The newest ban in force at `now`. One plain query: built through the ORM's query builder it
   * cost most of a chat message's CPU time. `em`: the caller's transaction (embedded PGlite
   * serves one connection at a time, so a check inside a transaction must use its connection).
   */
  async activeBan(userId: number, now: Date, em: EntityManager = this.db.em()): Promise<BanRecord | null> {
    const rule = inForce(now);
    const rows = await em.execute<BanRow[]>(`select ${COLUMNS} from bans where user_id = ? and ${rule.sql} order by id desc limit 1`, [userId, ...rule.params]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /**
   * Every ban not over at `now` (in force, or given with a start still ahead), newest first: the
   * whole list an instance keeps in memory (src/engine/ban-list.ts), which asks the domain's
   * isBanned per check.
   */
  async current(now: Date): Promise<BanRecord[]> {
    const rule = notOver(now);
    const rows = await this.db.em().execute<BanRow[]>(`select ${COLUMNS} from bans where ${rule.sql} order by id desc`, rule.params);
    return rows.map(fromRow);
  }

  async findById(id: number, em: EntityManager = this.db.em()): Promise<BanRecord | null> {
    const ban = await em.findOne(Ban, { id });
    return ban ? toBanRecord(ban) : null;
  }

  /** Newest first; with activeAt, only bans in force then. */
  async list(options: { activeAt?: Date; limit?: number } = {}): Promise<BanRecord[]> {
    const rule = options.activeAt ? inForce(options.activeAt) : { sql: 'true', params: [] };
    const rows = await this.db.em().execute<BanRow[]>(`select ${COLUMNS} from bans where ${rule.sql} order by id desc limit ?`, [...rule.params, options.limit ?? 500]);
    return rows.map(fromRow);
  }

  /** Returns false when the ban does not exist or was already lifted. */
  async lift(id: number, at: Date, em: EntityManager = this.db.em()): Promise<boolean> {
    const count = await em.nativeUpdate(Ban, { id, liftedAt: null }, { liftedAt: at });
    return count > 0;
  }

  /** One page, newest first: bans in force at `now` (active), no longer in force (past), or all. */
  async page(query: { status: 'active' | 'past' | 'all'; userId?: number; now: Date; limit: number; page: number }) {
    const rule = inForce(query.now);
    const where: Array<{ sql: string; params: unknown[] }> = [
      ...(query.userId === undefined ? [] : [{ sql: 'user_id = ?', params: [query.userId] }]),
      ...(query.status === 'active' ? [rule] : query.status === 'past' ? [{ sql: `not (${rule.sql})`, params: rule.params }] : []),
    ];
    const clause = where.length ? `where ${where.map((w) => `(${w.sql})`).join(' and ')}` : '';
    const params = where.flatMap((w) => w.params);
    const em = this.db.em();
    const [rows, counted] = await Promise.all([
      em.execute<BanRow[]>(`select ${COLUMNS} from bans ${clause} order by id desc limit ? offset ?`, [...params, query.limit, (query.page - 1) * query.limit]),
      em.execute<Array<{ total: number | string }>>(`select count(*) as total from bans ${clause}`, params),
    ]);
    return { bans: rows.map(fromRow), total: Number(counted[0].total) };
  }
}

interface BanRow {
  id: number;
  user_id: number;
  reason: string;
  created_by_id: number | null;
  created_at: Date | string;
  expires_at: Date | string | null;
  lifted_at: Date | string | null;
}

function toBanRecord(ban: InferEntity<typeof Ban>): BanRecord {
  return {
    id: ban.id,
    userId: ban.user,
    reason: ban.reason,
    createdBy: ban.createdBy ?? null,
    createdAt: ban.createdAt,
    expiresAt: ban.expiresAt ?? null,
    liftedAt: ban.liftedAt ?? null,
  };
}

function fromRow(row: BanRow): BanRecord {
  return {
    id: row.id, userId: row.user_id, reason: row.reason, createdBy: row.created_by_id, createdAt: new Date(row.created_at),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at), liftedAt: row.lifted_at === null ? null : new Date(row.lifted_at),
  };
}
