import type { InferEntity } from '@mikro-orm/core';
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

  /** The newest ban in force at `now`: started, not expired, not lifted. */
  async activeBan(userId: number, now: Date): Promise<BanRecord | null> {
    const ban = await this.db.em().findOne(Ban, { user: userId, ...inForceAt(now) }, { orderBy: { id: 'desc' } });
    return ban ? toBanRecord(ban) : null;
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
