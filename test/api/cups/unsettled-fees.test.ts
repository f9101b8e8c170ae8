import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakePayPal } from '../../fakes/fake-paypal';
import type { TestServerWithLogin } from '../../support/login';
import { until } from '../../support/timing';
import type { AdminSide } from '../admin/admin-fixtures';
import { captureEntry, orderEntry, startMoneyCupWorld, type MoneyCupWorld } from './cup-fixtures';

/*
 * Entry orders PayPal captured while nothing of ours recorded it (a crash between the capture and
 * the entry) and no webhook arrives: past the grace (1 s here) the sweep settles them.
 */
let world: MoneyCupWorld;
let paypal: FakePayPal;
let server: TestServerWithLogin;
let side: AdminSide;
beforeAll(async () => {
  world = await startMoneyCupWorld({ CUP_FEE_GRACE_SECONDS: '1' });
  ({ paypal, server, side } = world);
}, 60_000);
afterAll(() => world?.close());

const FEE = { amount: 700, currency: 'EUR' };
const createCup = async (overrides: Record<string, unknown> = {}): Promise<number> => (await world.createCup(FEE, overrides)).id;
const team = () => world.team();
const enteredTeams = async (cupId: number): Promise<number[]> =>
  (await side.admin.get(`/api/cups/${cupId}`)).body.entries.map((e: any) => e.team.id).sort();

async function feeOf(orderId: string): Promise<{ status: string; checks: number }> {
  const [row] = await server.database.db.em().execute<{ status: string; checks: number }[]>(
    'select status, checks from cup_entry_fees where order_id = ?', [orderId]);
  return row!;
}

describe('the unsettled fee sweep', () => {
  it('enters the team of an order PayPal captured when no capture was recorded and no webhook came', async () => {
    const cupId = await createCup();
    const entrant = await team();
    const order = await orderEntry(entrant.leader, cupId, entrant.id);
    paypal.approve(order.order_id);
    paypal.captureBehindOurBack(order.order_id);
    await until('the entry made by the sweep', async () => ((await enteredTeams(cupId)).includes(entrant.id) ? true : null), 15_000);
    expect((await feeOf(order.order_id)).status).toBe('paid');
    // The buyer comes back later: the same entry, and the order was captured once.
    expect((await captureEntry(entrant.leader, cupId, order.order_id)).status).toBe(201);
    expect(paypal.order(order.order_id)!.status).toBe('COMPLETED');
    expect((await side.admin.get(`/api/admin/cups/${cupId}/refunds`)).body).toEqual([]);
  });

  it('enters the team of a capture recorded by a process that stopped before making the entry', async () => {
    const cupId = await createCup();
    const entrant = await team();
    const order = await orderEntry(entrant.leader, cupId, entrant.id);
    paypal.approve(order.order_id);
    paypal.captureBehindOurBack(order.order_id);
    // What the capture recorded before the process stopped: the fee captured, no entry.
    await server.database.db.em().execute(
      `update cup_entry_fees set status = 'captured', capture_id = ? where order_id = ?`, [paypal.order(order.order_id)!.capture!.id, order.order_id], 'run');
    await until('the entry made by the sweep', async () => ((await enteredTeams(cupId)).includes(entrant.id) ? true : null), 15_000);
    expect((await feeOf(order.order_id)).status).toBe('paid');
  });

  it('refunds an order PayPal captured for a team that can no longer enter', async () => {
    const cupId = await createCup({ max_teams: 2 });
    const [late, ...others] = [await team(), await team(), await team()];
    const order = await orderEntry(late!.leader, cupId, late!.id);
    for (const other of others) await world.payIn(cupId, other);
    paypal.approve(order.order_id);
    paypal.captureBehindOurBack(order.order_id);
    const capture = paypal.order(order.order_id)!.capture!.id;
    const [refund] = await until('the refund queued by the sweep', async () => {
      const refunds = (await side.admin.get(`/api/admin/cups/${cupId}/refunds`)).body;
      return refunds.length === 1 && refunds[0].status === 'refunded' ? refunds : null;
    }, 15_000);
    expect(refund).toMatchObject({ team_id: late!.id, capture_id: capture, amount: 700, currency: 'EUR' });
    expect(paypal.refunds.filter((r) => r.captureId === capture)).toHaveLength(1);
    expect(await enteredTeams(cupId)).toEqual(others.map((o) => o.id).sort());
  });

  it('takes no money for an approved order the buyer never captured', async () => {
    const cupId = await createCup();
    const entrant = await team();
    const order = await orderEntry(entrant.leader, cupId, entrant.id);
    paypal.approve(order.order_id);
    await until('the sweep looked at the order', async () => ((await feeOf(order.order_id)).checks >= 1 ? true : null), 15_000);
    expect(paypal.order(order.order_id)!.status).toBe('APPROVED');
    expect((await feeOf(order.order_id)).status).toBe('pending_payment');
    expect(await enteredTeams(cupId)).toEqual([]);
  });
});
