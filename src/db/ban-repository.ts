import type { InferEntity } from '@mikro-orm/core';
import { isBanned, type BanRecord as DomainBan } from '../domain/access/ban';
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

/** The domain's view of a stored ban: when it ends (src/domain/access/ban.ts). */
export const domainBan = (ban: BanRecord): DomainBan => ({ expiresAt: ban.expiresAt?.getTime() ?? null, liftedAt: ban.liftedAt?.getTime() ?? null });

/** Given by `at` and not yet over (the domain's rule): what `activeBan`'s query selects, for a ban in hand. */
export function banInForce(ban: BanRecord, at: number): boolean {
  return ban.createdAt.getTime() <= at && isBanned(domainBan(ban), at);
}

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
   * The newest ban in force at `now`: started, not expired, not lifted (the rule of `inForceAt`).
   * Asked on join, create and every chat message, so it is one plain query: built through the
   * ORM's query builder it cost most of a chat message's CPU time.
   */
  async activeBan(userId: number, now: Date): Promise<BanRecord | null> {
    const rows = await this.db.em().execute<BanRow[]>(
      `select id, user_id, reason, created_by_id, created_at, expires_at, lifted_at from bans
       where user_id = ? and created_at <= ? and (expires_at is null or expires_at > ?) and (lifted_at is null or lifted_at > ?)
       order by id desc limit 1`,
      [userId, now, now, now],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /**
   * Every ban not yet expired or lifted at `now` (in force, or given with a start still ahead),
   * newest first: the whole list an instance keeps in memory (src/engine/ban-list.ts).
   */
  async current(now: Date): Promise<BanRecord[]> {
    const rows = await this.db.em().execute<BanRow[]>(
      `select id, user_id, reason, created_by_id, created_at, expires_at, lifted_at from bans
       where (expires_at is null or expires_at > ?) and (lifted_at is null or lifted_at > ?)
       order by id desc`,
      [now, now],
    );
    return rows.map(fromRow);
  }

  async findById(id: number, em: EntityManager = this.db.em()): Promise<BanRecord | null> {
    const ban = await em.findOne(Ban, { id });
    return ban ? toBanRecord(ban) : null;
  }

  /** Newest first; with activeAt, only bans in force then. */
  async list(options: { activeAt?: Date; limit?: number } = {}): Promise<BanRecord[]> {
    const where = options.activeAt ? inForceAt(options.activeAt) : {};
    const bans = await this.db.em().find(Ban, where, { orderBy: { id: 'desc' }, limit: options.limit ?? 500 });
    return bans.map(toBanRecord);
  }

  /** Returns false when the ban does not exist or was already lifted. */
  async lift(id: number, at: Date, em: EntityManager = this.db.em()): Promise<boolean> {
    const count = await em.nativeUpdate(Ban, { id, liftedAt: null }, { liftedAt: at });
    return count > 0;
  }

  /** One page, newest first: bans in force at `now` (active), no longer in force (past), or all. */
  async page(query: { status: 'active' | 'past' | 'all'; userId?: number; now: Date; limit: number; page: number }) {
    const active = inForceAt(query.now);
    const where = {
      ...(query.userId === undefined ? {} : { user: query.userId }),
      ...(query.status === 'active' ? active : query.status === 'past' ? { $not: active } : {}),
    };
    const [bans, total] = await this.db
      .em()
      .findAndCount(Ban, where, { orderBy: { id: 'desc' }, limit: query.limit, offset: (query.page - 1) * query.limit });
    return { bans: bans.map(toBanRecord), total };
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

function inForceAt(now: Date) {
  return {
    createdAt: { $lte: now },
    $and: [
      { $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] },
      { $or: [{ liftedAt: null }, { liftedAt: { $gt: now } }] },
    ],
  };
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
