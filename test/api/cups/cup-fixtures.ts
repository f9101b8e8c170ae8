import { expect } from 'vitest';
import type { EmSource } from '../../../src/db/orm';
import { startFakePayPal, type FakePayPal } from '../../fakes/fake-paypal';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { adminSideOn, type AdminSide } from '../admin/admin-fixtures';
import { nextPlatformId, type Player } from '../lobby/lobby-client';
import { approveAsBuyer, paypalEnv } from '../premium/premium-fixtures';
import { makeTeam, tournamentBody, type TestTeam } from '../tournaments/tournament-fixtures';

/** A creation body for an ultiduo cup (two players a team) with a fee, starting in an hour. */
export function cupBody(entryFee: { amount: number; currency?: string }, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return tournamentBody({ name: 'Test Paid Cup', entry_fee: entryFee, ...overrides });
}

/**
 * Every wallet against the ledger: each balance is the sum of its rows, never negative, and the
 * last row of each user says the balance it left.
 */
export async function expectLedgerHolds(db: EmSource): Promise<void> {
  const rows = await db.em().execute<{ user_id: number; balance: number; sum: number; last: number | null }[]>(
    `select b.user_id, b.balance, coalesce(sum(t.amount), 0)::int as sum,
       (select balance_after from point_transactions l where l.user_id = b.user_id order by l.id desc limit 1) as last
     from point_balances b left join point_transactions t on t.user_id = b.user_id group by b.user_id, b.balance`,
  );
  for (const row of rows) {
    expect(row.balance, `user ${row.user_id}`).toBe(row.sum);
    expect(row.balance, `user ${row.user_id}`).toBeGreaterThanOrEqual(0);
    expect(row.last ?? 0, `user ${row.user_id}`).toBe(row.balance);
  }
}

/** A user's wallet as the points routes show it. */
export async function balanceOf(player: Player): Promise<number> {
  const answer = await player.get('/api/points/balance');
  expect(answer.status).toBe(200);
  return answer.body.balance;
}

/** The members of a team (its roster now). */
export async function rosterOf(db: EmSource, teamId: number): Promise<number[]> {
  const rows = await db.em().execute<{ user_id: number }[]>('select user_id from team_memberships where team_id = ? and left_at is null order by user_id', [teamId]);
  return rows.map((r) => r.user_id);
}

/** The sum of one user's ledger rows of some kinds. */
export async function ledgerSum(db: EmSource, userId: number, kinds: string[]): Promise<number> {
  const [row] = await db.em().execute<{ n: number }[]>(
    `select coalesce(sum(amount), 0)::int as n from point_transactions where user_id = ? and kind in (?)`,
    [userId, kinds],
  );
  return row!.n;
}

/** The PayPal order a money cup's entry answers (200 {order_id, approval_url}). */
export async function orderEntry(leader: Player, cupId: number, teamId: number): Promise<{ order_id: string; approval_url: string }> {
  const answer = await leader.post(`/api/tournaments/${cupId}/entries`, { team_id: teamId });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

export const captureEntry = (leader: Player, cupId: number, orderId: string) =>
  leader.post(`/api/cups/${cupId}/entries/capture`, { order_id: orderId });

/** A server talking to the fake PayPal, with an admin side: where money cups are played. */
export interface MoneyCupWorld {
  paypal: FakePayPal;
  server: TestServerWithLogin;
  side: AdminSide;
  createCup(fee: { amount: number; currency: string }, overrides?: Record<string, unknown>): Promise<any>;
  team(): Promise<TestTeam>;
  /** Enters a team by paying: order, the buyer's approval at PayPal, capture; the order id. */
  payIn(cupId: number, entrant: TestTeam): Promise<string>;
  close(): Promise<void>;
}

export async function startMoneyCupWorld(env: Record<string, string> = {}): Promise<MoneyCupWorld> {
  const paypal = await startFakePayPal();
  const adminPlatformId = nextPlatformId();
  const server = await startTestServerWithLogin({ ADMIN_PLATFORM_IDS: adminPlatformId, ...env, ...paypalEnv(paypal) });
  const side = await adminSideOn(server, adminPlatformId);
  return {
    paypal, server, side,
    async createCup(fee, overrides = {}) {
      const answer = await side.asKey('/api/admin/tournaments', { method: 'POST', body: cupBody(fee, overrides) });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body;
    },
    async team() {
      return makeTeam(server.database.db, await side.player());
    },
    async payIn(cupId, entrant) {
      const order = await orderEntry(entrant.leader, cupId, entrant.id);
      await approveAsBuyer(order.approval_url);
      const captured = await captureEntry(entrant.leader, cupId, order.order_id);
      expect(captured.status, JSON.stringify(captured.body)).toBe(201);
      return order.order_id;
    },
    async close() {
      await server.close();
      await paypal.close();
    },
  };
}
