import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { conflict, DomainError, notFound } from '../domain/domain-error';
import { adminAwardEntry } from '../domain/points/admin-award';
import { customAvatarEntry } from '../domain/points/custom-avatar-entry';
import { applyEntry, notEnoughPoints, type Wallet } from '../domain/points/ledger-entry';
import { redeemEntry, type RewardOffer } from '../domain/points/redeem-reward';
import type { CustomAvatarChange } from '../domain/profile/custom-avatar';
import type { MakeoverChange, OwnedReward } from '../domain/profile/profile-makeover';
import { AdminAuditRepository } from './admin-audit-repository';
import type { EmSource, EntityManager } from './orm';
import { bookOneIn, lockWalletIn, toBookedEntry, walletIn, type BookedEntry, type BookedRow } from './point-ledger';

export interface RewardRecord extends RewardOffer {
  value: string;
}

export interface RedemptionRecord {
  id: number;
  rewardId: number;
  rewardName: string;
  kind: string;
  value: string;
  cost: number;
  redeemedAt: Date;
}

export interface PointsLeaderRecord {
  rank: number;
  userId: number;
  username: string;
  balance: number;
}

export interface AwardInput {
  adminId: number;
  userId: number;
  amount: number;
  reason: string;
}

export interface AwardResult {
  auditId: number;
  before: Wallet;
  after: Wallet;
  entry: BookedEntry;
}

/**
 * Points as the routes use them: reads, and every spend or award as one transaction that books
 * the ledger (src/db/point-ledger.ts) together with what was bought.
 */
export class PointsRepository {
  constructor(private readonly db: EmSource) {}

  wallet(userId: number): Promise<Wallet> {
    return walletIn(this.db.em(), userId);
  }

  /** Newest first; `page` is 1-indexed. */
  async transactions(userId: number, limit: number, page: number): Promise<BookedEntry[]> {
    const rows = await this.db.em().execute<BookedRow[]>(
      `select id, user_id, amount, kind, reason, balance_after, created_at from point_transactions
       where user_id = ? order by id desc limit ? offset ?`,
      [userId, limit, (page - 1) * limit],
    );
    return rows.map(toBookedEntry);
  }

  /** The whole catalogue, inactive rewards included (they stay owned and shown). */
  async rewards(): Promise<RewardRecord[]> {
    const rows = await this.db.em().execute<RewardRecord[]>('select id, name, kind, cost, value, active from point_rewards order by kind, cost, id');
    return rows.map((r) => ({ ...r }));
  }

  async redemptions(userId: number): Promise<RedemptionRecord[]> {
    const rows = await this.db.em().execute<RedemptionRow[]>(
      `select d.id, d.reward_id, r.name, r.kind, r.value, d.cost, d.created_at
       from point_redemptions d join point_rewards r on r.id = d.reward_id
       where d.user_id = ? order by d.id desc`,
      [userId],
    );
    return rows.map((row) => ({
      id: row.id,
      rewardId: row.reward_id,
      rewardName: row.name,
      kind: row.kind,
      value: row.value,
      cost: row.cost,
      redeemedAt: new Date(row.created_at),
    }));
  }

  async ownedRewards(userId: number): Promise<OwnedReward[]> {
    return (await this.redemptions(userId)).map((r) => ({ id: r.rewardId, kind: r.kind, value: r.value }));
  }

  /** Highest balance first (ties: the older account); only users holding points are ranked. */
  async leaderboard(limit: number): Promise<PointsLeaderRecord[]> {
    const rows = await this.db.em().execute<{ rank: string | number; user_id: number; username: string; balance: number }[]>(
      `select row_number() over (order by b.balance desc, b.user_id) as rank, b.user_id, u.username, b.balance
       from point_balances b join users u on u.id = b.user_id
       where b.balance > 0 order by b.balance desc, b.user_id limit ?`,
      [limit],
    );
    return rows.map((r) => ({ rank: Number(r.rank), userId: r.user_id, username: r.username, balance: r.balance }));
  }

  /**
   * Spends the reward's cost and records ownership in one transaction. Throws DomainError:
   * not_found (unknown or inactive), conflict (already owned), payment_required (not enough).
   */
  async redeem(userId: number, rewardId: number): Promise<{ redemption: RedemptionRecord; balance: number }> {
    try {
      return await this.db.em().transactional(async (em) => {
        const [reward] = await em.execute<RewardRecord[]>('select id, name, kind, cost, value, active from point_rewards where id = ?', [rewardId]);
        const owned = await em.execute('select 1 from point_redemptions where user_id = ? and reward_id = ?', [userId, rewardId]);
        const outcome = redeemEntry(userId, reward ?? null, owned.length > 0);
        if (!outcome.ok) throw outcome.error;
        const booked = await bookOneIn(em, outcome.state);
        if (!booked) throw notEnoughPoints();
        const [row] = await em.execute<{ id: number; created_at: Date | string }[]>(
          'insert into point_redemptions (user_id, reward_id, cost) values (?, ?, ?) returning id, created_at',
          [userId, rewardId, reward.cost],
        );
        const redemption = {
          id: row.id,
          rewardId,
          rewardName: reward.name,
          kind: reward.kind,
          value: reward.value,
          cost: reward.cost,
          redeemedAt: new Date(row.created_at),
        };
        return { redemption, balance: booked.balanceAfter };
      });
    } catch (error) {
      // Two redeems of one reward that both could pay: the second meets the first's ledger key.
      if (error instanceof UniqueConstraintViolationException) throw conflict('reward already owned');
      throw error;
    }
  }

  /**
   * Sets the avatar and spends its price in one transaction; false (and nothing written) when the
   * balance no longer covers it. The users row is written before the balance row is locked: the
   * order a match report takes them in, so the two never wait on each other in a circle.
   */
  async buyCustomAvatar(userId: number, change: CustomAvatarChange): Promise<boolean> {
    try {
      await this.db.em().transactional(async (em) => {
        await em.execute('update users set custom_avatar_url = ? where id = ?', [change.avatarUrl, userId], 'run');
        if (!(await bookOneIn(em, customAvatarEntry(userId, change, randomUUID())))) throw notEnoughPoints();
      });
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'payment_required') return false;
      throw error;
    }
  }

  /** Writes only the fields present; null clears. */
  async applyMakeover(userId: number, change: MakeoverChange): Promise<void> {
    const fields: Array<[string, string | null | undefined]> = [
      ['name_color', change.nameColor],
      ['profile_frame', change.profileFrame],
    ];
    const present = fields.filter(([, value]) => value !== undefined);
    if (present.length === 0) return;
    const sql = `update users set ${present.map(([column]) => `${column} = ?`).join(', ')} where id = ?`;
    await this.db.em().execute(sql, [...present.map(([, value]) => value ?? null), userId], 'run');
  }

  /**
   * An admin's award (or, negative, a correction) with its admin_audit row, in one transaction on
   * the locked balance. Throws not_found (no such user), invalid (zero, too large, no reason),
   * conflict (a correction larger than the balance).
   */
  async award(input: AwardInput): Promise<AwardResult> {
    return this.db.em().transactional(async (em) => {
      await requireUser(em, input.userId);
      const before = await lockWalletIn(em, input.userId);
      const moved = applyEntry(before, input.amount);
      if (!moved.ok) throw moved.error.kind === 'payment_required' ? conflict('the correction is larger than the balance') : moved.error;
      const auditId = await AdminAuditRepository.insertIn(em, {
        actorId: input.adminId,
        action: 'points.award',
        targetType: 'user',
        targetId: String(input.userId),
        before: walletJson(before),
        // The amount beside the wallet it left, so the row reads on its own ("+75: 120 -> 195").
        after: { ...walletJson(moved.state), amount: input.amount },
        reason: input.reason,
      });
      const outcome = adminAwardEntry({ ...input, auditId });
      if (!outcome.ok) throw outcome.error;
      const entry = await bookOneIn(em, outcome.state);
      // The wallet row is locked, so the check above still holds: this cannot happen.
      if (!entry) throw new Error('an award checked against the locked balance was refused by the ledger');
      return { auditId, before, after: moved.state, entry };
    });
  }
}

interface RedemptionRow {
  id: number;
  reward_id: number;
  name: string;
  kind: string;
  value: string;
  cost: number;
  created_at: Date | string;
}

async function requireUser(em: EntityManager, userId: number): Promise<void> {
  const rows = await em.execute('select id from users where id = ?', [userId]);
  if (rows.length === 0) throw notFound('user not found');
}

const walletJson = (w: Wallet) => ({ balance: w.balance, lifetime_earned: w.lifetimeEarned, lifetime_spent: w.lifetimeSpent });
