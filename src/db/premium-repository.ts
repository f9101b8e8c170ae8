import type { InferEntity } from '@mikro-orm/core';
import { PremiumGrant } from './entities';
import type { EmSource, EntityManager } from './orm';

import type { PremiumPlan } from '../domain/premium/plans';

export type { PremiumPlan };

export interface PremiumGrantRecord {
  id: number;
  userId: number;
  plan: PremiumPlan;
  source: string;
  grantedAt: Date;
  expiresAt: Date;
}

export interface ExtendingGrant {
  userId: number;
  plan: PremiumPlan;
  /** Where it came from: "paypal:<order id>", "gift:<code>", "admin:<id>"... */
  source: string;
  now: Date;
  /** The plan's length: its end when it starts at `start`. */
  endFrom: (start: Date) => Date;
  /** The paid order behind it; unique, so one order never grants twice. */
  orderId?: string;
}

export class PremiumRepository {
  constructor(private readonly db: EmSource) {}

  /** The grant whose [granted_at, expires_at) window contains `now`; the latest one if several do. */
  async activeGrant(userId: number, now: Date): Promise<PremiumGrantRecord | null> {
    const grant = await this.db.em().findOne(
      PremiumGrant,
      { user: userId, grantedAt: { $lte: now }, expiresAt: { $gt: now } },
      { orderBy: { grantedAt: 'desc', id: 'desc' } },
    );
    return grant ? toGrantRecord(grant) : null;
  }

  /** When the user's premium ends, counting grants queued after the current one; null if not premium. */
  async premiumUntil(userId: number, now: Date): Promise<Date | null> {
    return latestExpiry(this.db.em(), userId, now);
  }

  /**
   * Adds a grant starting where the user's premium ends (or now, if it has ended), so buying
   * again extends rather than overlaps. The user row is locked: two purchases at once both count.
   */
  async grantExtending(grant: ExtendingGrant): Promise<PremiumGrantRecord> {
    return this.db.em().transactional((em) => grantExtendingIn(em, grant));
  }

  async listByUser(userId: number): Promise<PremiumGrantRecord[]> {
    const grants = await this.db
      .em()
      .find(PremiumGrant, { user: userId }, { orderBy: { grantedAt: 'desc', id: 'desc' } });
    return grants.map(toGrantRecord);
  }
}

/** `grantExtending` inside a transaction the caller holds (a capture or a redeem that grants with it). */
export async function grantExtendingIn(em: EntityManager, grant: ExtendingGrant): Promise<PremiumGrantRecord> {
  await em.execute('select id from users where id = ? for update', [grant.userId]);
  const until = await latestExpiry(em, grant.userId, grant.now);
  const start = until ?? grant.now;
  const entity = em.create(PremiumGrant, {
    user: grant.userId,
    plan: grant.plan,
    source: grant.source,
    grantedAt: start,
    expiresAt: grant.endFrom(start),
    order: grant.orderId ?? null,
  });
  await em.flush();
  return toGrantRecord(entity);
}

async function latestExpiry(em: EntityManager, userId: number, now: Date): Promise<Date | null> {
  const latest = await em.findOne(
    PremiumGrant,
    { user: userId, expiresAt: { $gt: now } },
    { orderBy: { expiresAt: 'desc' } },
  );
  return latest?.expiresAt ?? null;
}

function toGrantRecord(grant: InferEntity<typeof PremiumGrant>): PremiumGrantRecord {
  return {
    id: grant.id,
    userId: grant.user,
    plan: grant.plan,
    source: grant.source,
    grantedAt: grant.grantedAt,
    expiresAt: grant.expiresAt,
  };
}
