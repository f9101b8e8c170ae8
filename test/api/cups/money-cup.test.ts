import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakePayPal } from '../../fakes/fake-paypal';
import type { TestServerWithLogin } from '../../support/login';
import { until } from '../../support/timing';
import type { AdminSide } from '../admin/admin-fixtures';
import { approveAsBuyer } from '../premium/premium-fixtures';
import { playOut, type TestTeam } from '../tournaments/tournament-fixtures';
import { captureEntry, orderEntry, startMoneyCupWorld, type MoneyCupWorld } from './cup-fixtures';

/*
 * Money cups against the fake PayPal (PayPal's own wire format): an order per entry, captured into
 * the entry; refunds through PayPal's refund call, each exactly once.
 */
let world: MoneyCupWorld;
let paypal: FakePayPal;
let server: TestServerWithLogin;
let side: AdminSide;
beforeAll(async () => {
  world = await startMoneyCupWorld();
  ({ paypal, server, side } = world);
}, 60_000);
afterAll(() => world?.close());

const FEE = { amount: 500, currency: 'EUR' };
const createCup = (overrides: Record<string, unknown> = {}) => world.createCup(FEE, overrides);
const team = () => world.team();
const payIn = (cupId: number, entrant: TestTeam) => world.payIn(cupId, entrant);

// The admin session, not the key: polling would spend the key's per-minute budget.
const refundsOf = async (cupId: number): Promise<any[]> => (await side.admin.get(`/api/admin/cups/${cupId}/refunds`)).body;

const allRefunded = (cupId: number, count: number) =>
  until(`${count} refunds of cup ${cupId}`, async () => {
    const refunds = await refundsOf(cupId);
    return refunds.length === count && refunds.every((r) => r.status === 'refunded') ? refunds : null;
  }, 15_000).catch(async (error: unknown) => {
    throw new Error(`${String(error)}: ${JSON.stringify(await refundsOf(cupId))}`);
  });

describe('a money cup', () => {
  it('is played by 2 teams against PayPal, with a withdrawal refunded at PayPal, to pending payouts marked paid', async () => {
    const cup = await createCup({ max_teams: 2, prizes: [{ rank: 1, percent: 70 }], house_percent: 10 });
    const [a, b] = [await team(), await team()];

    // The order holds no place until it is paid.
    const order = await orderEntry(a.leader, cup.id, a.id);
    expect(order.approval_url).toContain(paypal.url);
    expect((await side.admin.get(`/api/cups/${cup.id}`)).body.entries).toEqual([]);
    expect((await captureEntry(a.leader, cup.id, order.order_id)).status).toBe(402);
    expect((await captureEntry(b.leader, cup.id, order.order_id)).status).toBe(403);
    await approveAsBuyer(order.approval_url);
    const entry = await captureEntry(a.leader, cup.id, order.order_id);
    expect(entry.status).toBe(201);
    expect(entry.body).toMatchObject({ team: { id: a.id }, status: 'entered' });
    // Twice: the same entry, captured once.
    expect(await captureEntry(a.leader, cup.id, order.order_id)).toMatchObject({ status: 201, body: entry.body });
    expect(paypal.order(order.order_id)!.status).toBe('COMPLETED');

    // B pays, withdraws (refunded at PayPal, recorded with PayPal's refund id), and pays again.
    const firstB = await payIn(cup.id, b);
    expect((await b.leader.send('DELETE', `/api/tournaments/${cup.id}/entries/${b.id}`)).status).toBe(204);
    const [refund] = await allRefunded(cup.id, 1);
    const captureB = paypal.order(firstB)!.capture!.id;
    expect(paypal.refunds.map((r) => r.captureId)).toEqual([captureB]);
    expect(refund).toMatchObject({ team_id: b.id, capture_id: captureB, amount: 500, currency: 'EUR', paypal_refund_id: paypal.refunds[0]!.id });
    await payIn(cup.id, b);
    expect((await side.admin.get(`/api/cups/${cup.id}`)).body.prize_pool).toEqual({ amount: 900, currency: 'EUR' });

    expect((await side.asKey(`/api/admin/tournaments/${cup.id}/start`, { method: 'POST' })).status).toBe(200);
    await playOut(side.admin, cup.id, [a, b]);
    const paid = await side.asKey(`/api/admin/cups/${cup.id}/payouts`, { method: 'POST' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toEqual([expect.objectContaining({ rank: 1, amount: 630, currency: 'EUR', status: 'pending', reference: null })]);
    const payoutPath = `/api/admin/cups/${cup.id}/payouts/${paid.body[0].id}/paid`;
    const marked = await side.asKey(payoutPath, { method: 'POST', body: { reference: 'PAYOUT-1' } });
    expect(marked.body).toMatchObject({ status: 'paid', reference: 'PAYOUT-1' });
    expect((await side.asKey(payoutPath, { method: 'POST', body: { reference: 'PAYOUT-1' } })).body).toEqual(marked.body);
    expect((await side.asKey(payoutPath, { method: 'POST', body: { reference: 'PAYOUT-2' } })).status).toBe(409);
    expect((await side.asKey(`/api/admin/cups/${cup.id}/payouts`, { method: 'POST' })).body).toEqual([marked.body]);
    expect(paypal.counts.refunds).toBe(1);
  });

  it('grants one entry to concurrent captures of one order', async () => {
    const cup = await createCup();
    const entrant = await team();
    const order = await orderEntry(entrant.leader, cup.id, entrant.id);
    await approveAsBuyer(order.approval_url);
    const captures = await Promise.all(Array.from({ length: 6 }, () => captureEntry(entrant.leader, cup.id, order.order_id)));
    expect(captures.map((c) => c.status)).toEqual(Array(6).fill(201));
    const entries = (await side.admin.get(`/api/cups/${cup.id}`)).body.entries;
    expect(entries.map((e: any) => e.team.id)).toEqual([entrant.id]);
    const [fees] = await server.database.db.em().execute<{ n: number }[]>(
      `select count(*)::int as n from cup_entry_fees where tournament_id = ? and status = 'paid'`, [cup.id]);
    expect(fees!.n).toBe(1);
  });

  it('refunds each capture exactly once when the first refund call times out and is retried', async () => {
    const cup = await createCup({ max_teams: 4 });
    const orders = [await payIn(cup.id, await team()), await payIn(cup.id, await team())];
    const before = paypal.counts.refunds;
    // PayPal refunds but its answer never arrives: the client retries with the same request id.
    paypal.fail('refund', 'lose_answer');
    expect((await side.asKey(`/api/admin/tournaments/${cup.id}/cancel`, { method: 'POST' })).status).toBe(200);
    const refunds = await allRefunded(cup.id, 2);
    const captures = orders.map((o) => paypal.order(o)!.capture!.id);
    expect(paypal.counts.refunds - before).toBe(2);
    expect(paypal.refunds.filter((r) => captures.includes(r.captureId)).map((r) => r.captureId).sort()).toEqual([...captures].sort());
    expect(refunds.map((r) => r.paypal_refund_id).sort()).toEqual(paypal.refunds.filter((r) => captures.includes(r.captureId)).map((r) => r.id).sort());
    // The unanswered call was retried with its own request id, and PayPal replayed its refund.
    const calls = paypal.refundCalls.filter((c) => captures.includes(c.captureId));
    expect(calls).toHaveLength(3);
    const retried = calls.filter((c) => calls.filter((o) => o.captureId === c.captureId).length === 2);
    expect(retried).toHaveLength(2);
    expect(retried[0]!.requestId).toBe(retried[1]!.requestId);
  });

  it('keeps a failed refund visible to admins and retries it until PayPal refunds, with a new request id after a refusal', async () => {
    const cup = await createCup();
    const entrant = await team();
    const orderId = await payIn(cup.id, entrant);
    paypal.fail('refund', { status: 422 });
    expect((await entrant.leader.send('DELETE', `/api/tournaments/${cup.id}/entries/${entrant.id}`)).status).toBe(204);
    const failed = await until('a failed refund', async () => {
      const [refund] = await refundsOf(cup.id);
      return refund?.status === 'failed' ? refund : null;
    }, 10_000);
    expect(failed.last_error).toContain('refused');
    const [done] = await allRefunded(cup.id, 1);
    expect(done.attempts).toBe(2);
    const made = paypal.refunds.filter((r) => r.orderId === orderId);
    expect(made).toHaveLength(1);
    const calls = paypal.refundCalls.filter((c) => c.captureId === made[0]!.captureId);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.requestId).toBe(made[0]!.requestId);
    expect(calls[0]!.requestId).not.toBe(calls[1]!.requestId);
  });

  it('takes PayPal\'s PAYMENT.CAPTURE.REFUNDED as the refund whose answer never arrived', async () => {
    const cup = await createCup();
    const entrant = await team();
    const orderId = await payIn(cup.id, entrant);
    // Both tries of the first attempt: PayPal refunds, no answer reaches us.
    paypal.fail('refund', 'lose_answer');
    paypal.fail('refund', 'lose_answer');
    expect((await entrant.leader.send('DELETE', `/api/tournaments/${cup.id}/entries/${entrant.id}`)).status).toBe(204);
    await until('a refund without an answer', async () => {
      const [refund] = await refundsOf(cup.id);
      return refund?.status === 'failed' ? refund : null;
    }, 10_000);
    const made = paypal.refunds.find((r) => r.orderId === orderId)!;
    const delivered = await paypal.deliverWebhook(`${server.url}/api/premium/paypal-webhook`, paypal.refundedEvent(made.id));
    expect(delivered.status).toBe(200);
    expect((await refundsOf(cup.id))[0]).toMatchObject({ status: 'refunded', paypal_refund_id: made.id, last_error: null });
    expect(paypal.refunds.filter((r) => r.orderId === orderId)).toHaveLength(1);
  });

  it('enters the team from PayPal\'s webhook when the buyer approved and never came back', async () => {
    const cup = await createCup();
    const entrant = await team();
    const order = await orderEntry(entrant.leader, cup.id, entrant.id);
    paypal.approve(order.order_id);
    const delivered = await paypal.deliverWebhook(`${server.url}/api/premium/paypal-webhook`, paypal.orderApprovedEvent(order.order_id));
    expect(delivered.status).toBe(200);
    expect((await side.admin.get(`/api/cups/${cup.id}`)).body.entries.map((e: any) => e.team.id)).toEqual([entrant.id]);
    // The buyer comes back later: the same entry.
    expect((await captureEntry(entrant.leader, cup.id, order.order_id)).status).toBe(201);
    expect(paypal.order(order.order_id)!.status).toBe('COMPLETED');
  });

  it('takes no money for an entry that can no longer be made', async () => {
    const cup = await createCup({ max_teams: 2 });
    const [late, ...others] = [await team(), await team(), await team()];
    const order = await orderEntry(late!.leader, cup.id, late!.id);
    for (const other of others) await payIn(cup.id, other);
    await approveAsBuyer(order.approval_url);
    expect((await captureEntry(late!.leader, cup.id, order.order_id)).status).toBe(409);
    expect(paypal.order(order.order_id)!.status).toBe('APPROVED');
    expect(await refundsOf(cup.id)).toEqual([]);
  });

  it('refunds a payment PayPal captured for a team that can no longer enter', async () => {
    const cup = await createCup({ max_teams: 2 });
    const [late, ...others] = [await team(), await team(), await team()];
    const order = await orderEntry(late!.leader, cup.id, late!.id);
    for (const other of others) await payIn(cup.id, other);
    paypal.approve(order.order_id);
    paypal.captureBehindOurBack(order.order_id);
    const delivered = await paypal.deliverWebhook(`${server.url}/api/premium/paypal-webhook`, paypal.captureCompletedEvent(order.order_id));
    expect(delivered.status).toBe(200);
    const [refund] = await allRefunded(cup.id, 1);
    expect(refund.capture_id).toBe(paypal.order(order.order_id)!.capture!.id);
    expect((await captureEntry(late!.leader, cup.id, order.order_id)).status).toBe(409);
    expect((await side.admin.get(`/api/cups/${cup.id}`)).body.entries.map((e: any) => e.team.id).sort()).toEqual(others.map((o) => o.id).sort());
  });
});
