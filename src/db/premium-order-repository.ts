import { planEnd, type PremiumPlan } from '../domain/premium/plans';
import type { EmSource, EntityManager } from './orm';
import { grantExtendingIn, type PremiumGrantRecord } from './premium-repository';

export type OrderKind = 'premium' | 'gift';

export interface PremiumOrderRecord {
  id: string;
  userId: number;
  kind: OrderKind;
  plan: PremiumPlan;
  quantity: number;
  amount: string;
  currency: string;
  requestId: string;
  status: 'created' | 'completed';
  createdAt: Date;
  captureId: string | null;
  capturedAmount: string | null;
  capturedAt: Date | null;
  completedVia: 'capture' | 'webhook' | null;
}

export interface GiftCodeRecord {
  code: string;
  orderId: string;
  buyerId: number;
  plan: PremiumPlan;
  status: 'active' | 'redeemed' | 'revoked';
  createdAt: Date;
  expiresAt: Date;
  redeemedBy: number | null;
  redeemedAt: Date | null;
}

export interface PaidCapture {
  captureId: string;
  amount: string;
  via: 'capture' | 'webhook';
  now: Date;
}

export interface GiftIssue {
  /** Fresh codes for a gift order, one per unit bought. */
  newCodes: (count: number) => string[];
  expiresAt: (now: Date) => Date;
}

export type CompleteResult = { first: boolean; order: PremiumOrderRecord; grant: PremiumGrantRecord | null; codes: GiftCodeRecord[] };

export type RedeemResult =
  | { ok: true; code: GiftCodeRecord; grant: PremiumGrantRecord }
  | { ok: false; code: GiftCodeRecord | null };

/**
 * Orders, their captures and what they bought. Completing an order is one transaction holding
 * the order's row lock: whichever of the capture route and the webhook comes first grants (or
 * issues the codes), the other finds the order completed and reads what was given. The grant's
 * unique order_id makes a second grant impossible even without the lock.
 */
export class PremiumOrderRepository {
  constructor(private readonly db: EmSource) {}

  async insert(order: Omit<PremiumOrderRecord, 'status' | 'captureId' | 'capturedAmount' | 'capturedAt' | 'completedVia'>): Promise<void> {
    await this.db.em().execute(
      `insert into premium_orders (id, user_id, kind, plan, quantity, amount, currency, request_id, status, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, 'created', ?)`,
      [order.id, order.userId, order.kind, order.plan, order.quantity, order.amount, order.currency, order.requestId, order.createdAt],
    );
  }

  async find(orderId: string): Promise<PremiumOrderRecord | null> {
    const rows = await this.db.em().execute('select * from premium_orders where id = ?', [orderId]);
    return rows.length === 0 ? null : toOrder(rows[0]);
  }

  async complete(orderId: string, paid: PaidCapture, gifts: GiftIssue): Promise<CompleteResult | null> {
    return this.db.em().transactional(async (em) => {
      const rows = await em.execute('select * from premium_orders where id = ? for update', [orderId]);
      if (rows.length === 0) return null;
      const order = toOrder(rows[0]);
      if (order.status === 'completed') {
        return { first: false, order, grant: await grantOfOrder(em, orderId), codes: await codesOfOrder(em, orderId) };
      }
      const updated = await em.execute(
        `update premium_orders set status = 'completed', capture_id = ?, captured_amount = ?, captured_at = ?, completed_via = ?
         where id = ? returning *`,
        [paid.captureId, paid.amount, paid.now, paid.via, orderId],
      );
      const completed = toOrder(updated[0]);
      if (order.kind === 'premium') {
        const grant = await grantExtendingIn(em, {
          userId: order.userId, plan: order.plan, source: `paypal:${order.id}`, now: paid.now, endFrom: (start) => planEnd(order.plan, start), orderId,
        });
        return { first: true, order: completed, grant, codes: [] };
      }
      const expiresAt = gifts.expiresAt(paid.now);
      for (const code of gifts.newCodes(order.quantity)) {
        await em.execute(
          `insert into gift_codes (code, order_id, buyer_id, plan, status, created_at, expires_at) values (?, ?, ?, ?, 'active', ?, ?)`,
          [code, orderId, order.userId, order.plan, paid.now, expiresAt],
        );
      }
      return { first: true, order: completed, grant: null, codes: await codesOfOrder(em, orderId) };
    });
  }

  async codesOfOrder(orderId: string): Promise<GiftCodeRecord[]> {
    return codesOfOrder(this.db.em(), orderId);
  }

  /** Codes the user bought or redeemed, newest first. */
  async giftCodesOf(userId: number): Promise<GiftCodeRecord[]> {
    const rows = await this.db.em().execute(
      'select * from gift_codes where buyer_id = ? or redeemed_by_id = ? order by created_at desc, code',
      [userId, userId],
    );
    return rows.map(toGiftCode);
  }

  /**
   * Marks the code redeemed and grants its plan in one transaction. The conditional update is the
   * arbiter between concurrent redeems: only one finds the code still active.
   */
  async redeem(code: string, userId: number, now: Date): Promise<RedeemResult> {
    return this.db.em().transactional(async (em) => {
      const rows = await em.execute(
        `update gift_codes set status = 'redeemed', redeemed_by_id = ?, redeemed_at = ?
         where code = ? and status = 'active' and expires_at > ? returning *`,
        [userId, now, code, now],
      );
      if (rows.length === 0) {
        const found = await em.execute('select * from gift_codes where code = ?', [code]);
        return { ok: false, code: found.length === 0 ? null : toGiftCode(found[0]) };
      }
      const redeemed = toGiftCode(rows[0]);
      const grant = await grantExtendingIn(em, { userId, plan: redeemed.plan, source: `gift:${code}`, now, endFrom: (start) => planEnd(redeemed.plan, start) });
      return { ok: true, code: redeemed, grant };
    });
  }
}

async function grantOfOrder(em: EntityManager, orderId: string): Promise<PremiumGrantRecord | null> {
  const rows = await em.execute('select * from premium_grants where order_id = ?', [orderId]);
  if (rows.length === 0) return null;
  const row = rows[0];
  return { id: row.id, userId: row.user_id, plan: row.plan, source: row.source, grantedAt: new Date(row.granted_at), expiresAt: new Date(row.expires_at) };
}

async function codesOfOrder(em: EntityManager, orderId: string): Promise<GiftCodeRecord[]> {
  const rows = await em.execute('select * from gift_codes where order_id = ? order by code', [orderId]);
  return rows.map(toGiftCode);
}

const dateOrNull = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));

function toOrder(row: Record<string, any>): PremiumOrderRecord {
  return {
    id: row.id,
    userId: row.user_id,
    kind: row.kind,
    plan: row.plan,
    quantity: row.quantity,
    amount: row.amount,
    currency: row.currency,
    requestId: row.request_id,
    status: row.status,
    createdAt: new Date(row.created_at),
    captureId: row.capture_id,
    capturedAmount: row.captured_amount,
    capturedAt: dateOrNull(row.captured_at),
    completedVia: row.completed_via,
  };
}

function toGiftCode(row: Record<string, any>): GiftCodeRecord {
  return {
    code: row.code,
    orderId: row.order_id,
    buyerId: row.buyer_id,
    plan: row.plan,
    status: row.status,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    redeemedBy: row.redeemed_by_id,
    redeemedAt: dateOrNull(row.redeemed_at),
  };
}
