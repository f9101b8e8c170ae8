import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakePayPal, type FakePayPal } from '../../fakes/fake-paypal';
import { loginAs } from '../../support/login';
import type { SpawnedServer } from '../../support/spawn-server';
import { until } from '../../support/timing';
import { describeOnTwoInstances, startTwoInstances, type TwoInstances } from '../../support/two-instances';
import { call, issueKey } from '../identity/identity-fixtures';
import { nextPlatformId, Player } from '../lobby/lobby-client';
import { approveAsBuyer, paypalEnv } from '../premium/premium-fixtures';
import { makeTeam, type TestTeam } from '../tournaments/tournament-fixtures';
import { captureEntry, cupBody, expectLedgerHolds, orderEntry } from './cup-fixtures';

/*
 * Two server processes sharing Postgres and Redis: fees taken on both at once never overdraw a
 * wallet, and a cancellation both run at once refunds every paid entry at PayPal exactly once.
 */
describeOnTwoInstances('cups on two server processes', () => {
  const adminPlatformId = '76561198000077031';
  let paypal: FakePayPal;
  let instances: TwoInstances;
  let servers: SpawnedServer[];
  let adminKey: string;

  beforeAll(async () => {
    paypal = await startFakePayPal();
    instances = await startTwoInstances({ ADMIN_PLATFORM_IDS: adminPlatformId, ...paypalEnv(paypal) });
    servers = instances.servers;
    const admin = await loginAs(servers[0]!, instances.provider, adminPlatformId);
    adminKey = (await issueKey(servers[0]!, admin.cookie, 'admin')).raw;
  }, 180_000);

  afterAll(async () => {
    await instances?.close();
    await paypal?.close();
  });

  async function asAdmin(on: SpawnedServer, path: string, body: unknown = {}): Promise<{ status: number; body: any }> {
    const response = await call(on, path, { method: 'POST', bearer: adminKey, body });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  async function createCup(fee: { amount: number; currency: string }, maxTeams: number): Promise<number> {
    const created = await asAdmin(servers[0]!, '/api/admin/tournaments', cupBody(fee, { max_teams: maxTeams }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id;
  }

  /** A team whose leader is logged in on instance `i`. */
  async function teamOn(i: number): Promise<TestTeam> {
    const { cookie, user } = await loginAs(servers[i]!, instances.provider, nextPlatformId());
    return makeTeam(instances.database.db, new Player(servers[i]!.url, cookie, user));
  }

  it('takes fees entered at once on both instances only while the wallet covers them, the ledger its sum', async () => {
    const cups = [];
    for (let i = 0; i < 6; i += 1) cups.push(await createCup({ amount: 100, currency: 'points' }, 4));
    const entrant = await teamOn(0);
    expect((await asAdmin(servers[1]!, '/api/points/admin/award', { user_id: entrant.leader.id, amount: 250, reason: 'stake' })).status).toBe(200);
    const onOther = entrant.leader.on(servers[1]!.url);
    const answers = await Promise.all(
      cups.map((id, i) => (i % 2 === 0 ? entrant.leader : onOther).post(`/api/tournaments/${id}/entries`, { team_id: entrant.id })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 402, 402, 402, 402]);
    expect((await entrant.leader.get('/api/points/balance')).body.balance).toBe(50);
    await expectLedgerHolds(instances.database.db);
  });

  it('lets points entries and avatar purchases racing on both instances through exactly while the wallet covers them', async () => {
    // Every spend costs 500 (the custom avatar's default price): a stake of 1500 covers exactly three.
    const cups = [];
    for (let i = 0; i < 4; i += 1) cups.push(await createCup({ amount: 500, currency: 'points' }, 4));
    const entrant = await teamOn(0);
    expect((await asAdmin(servers[1]!, '/api/points/admin/award', { user_id: entrant.leader.id, amount: 1_500, reason: 'stake' })).status).toBe(200);
    const on = (i: number) => (i % 2 === 0 ? entrant.leader : entrant.leader.on(servers[1]!.url));
    const answers = await Promise.all([
      ...cups.map((id, i) => on(i).post(`/api/tournaments/${id}/entries`, { team_id: entrant.id })),
      ...[0, 1, 2, 3].map((i) => on(i + 1).post('/api/users/set-custom-avatar', { avatar_url: `https://cdn.example.com/race${i}.png` })),
    ]);
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200 || s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 402)).toHaveLength(5);
    expect((await entrant.leader.get('/api/points/balance')).body.balance).toBe(0);

    const db = instances.database.db;
    const entered = statuses.slice(0, 4).filter((s) => s === 201).length;
    const [spends] = await db.em().execute<{ entries: number; avatars: number; lowest: number }[]>(
      `select count(*) filter (where kind = 'cup_entry')::int as entries, count(*) filter (where kind = 'custom_avatar')::int as avatars,
         min(balance_after)::int as lowest from point_transactions where user_id = ?`,
      [entrant.leader.id],
    );
    expect(spends).toEqual({ entries: entered, avatars: 3 - entered, lowest: 0 });
    const [fees] = await db.em().execute<{ n: number }[]>(`select count(*)::int as n from cup_entry_fees where payer_id = ? and status = 'paid'`, [entrant.leader.id]);
    expect(fees!.n).toBe(entered);
    await expectLedgerHolds(db);
  });

  it('grants one entry to captures of one order racing on both instances', async () => {
    const id = await createCup({ amount: 800, currency: 'EUR' }, 4);
    const entrant = await teamOn(0);
    const order = await orderEntry(entrant.leader, id, entrant.id);
    await approveAsBuyer(order.approval_url);
    const capturesBefore = paypal.counts.captures;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => captureEntry(i % 2 === 0 ? entrant.leader : entrant.leader.on(servers[1]!.url), id, order.order_id)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    expect(paypal.counts.captures - capturesBefore).toBe(1);
    const [fees] = await instances.database.db.em().execute<{ n: number }[]>(
      `select count(*)::int as n from cup_entry_fees where tournament_id = ? and status = 'paid'`, [id]);
    expect(fees!.n).toBe(1);
    expect((await entrant.leader.get(`/api/cups/${id}`)).body.entries.map((e: any) => e.team.id)).toEqual([entrant.id]);
  });

  it('enters the team once from a PAYMENT.CAPTURE.COMPLETED delivered to both instances', async () => {
    const id = await createCup({ amount: 900, currency: 'EUR' }, 4);
    const entrant = await teamOn(1);
    const order = await orderEntry(entrant.leader, id, entrant.id);
    paypal.approve(order.order_id);
    paypal.captureBehindOurBack(order.order_id);
    const event = paypal.captureCompletedEvent(order.order_id);
    const delivered = await Promise.all(servers.map((on) => paypal.deliverWebhook(`${on.url}/api/premium/paypal-webhook`, event)));
    expect(delivered.map((d) => d.status)).toEqual([200, 200]);
    const cup = (await entrant.leader.get(`/api/cups/${id}`)).body;
    expect(cup.entries.map((e: any) => [e.team.id, e.status])).toEqual([[entrant.id, 'entered']]);
    expect(cup.prize_pool).toEqual({ amount: 900, currency: 'EUR' });
    // The buyer comes back: the same entry, nothing captured or refunded again.
    expect((await captureEntry(entrant.leader, id, order.order_id)).status).toBe(201);
    expect(paypal.refunds.filter((r) => r.orderId === order.order_id)).toEqual([]);
  });

  it('refunds every paid entry exactly once when both instances cancel the cup at once', async () => {
    const id = await createCup({ amount: 1_000, currency: 'EUR' }, 4);
    const orders: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const entrant = await teamOn(i % 2);
      const order = await orderEntry(entrant.leader, id, entrant.id);
      await approveAsBuyer(order.approval_url);
      expect((await captureEntry(entrant.leader, id, order.order_id)).status).toBe(201);
      orders.push(order.order_id);
    }
    const cancels = await Promise.all(servers.map((on) => asAdmin(on, `/api/admin/tournaments/${id}/cancel`)));
    expect(cancels.map((c) => c.status).sort()).toEqual([200, 409]);
    const captures = orders.map((o) => paypal.order(o)!.capture!.id).sort();
    const db = instances.database.db;
    await until('three refunds done', async () => {
      const [row] = await db.em().execute<{ n: number }[]>(`select count(*)::int as n from cup_refunds where tournament_id = ? and status = 'refunded'`, [id]);
      return row!.n === 3 ? true : null;
    }, 15_000);
    expect(paypal.refunds.filter((r) => captures.includes(r.captureId)).map((r) => r.captureId).sort()).toEqual(captures);
    const recorded = await db.em().execute<{ paypal_refund_id: string }[]>('select paypal_refund_id from cup_refunds where tournament_id = ?', [id]);
    expect(recorded.map((r) => r.paypal_refund_id).sort()).toEqual(paypal.refunds.filter((r) => captures.includes(r.captureId)).map((r) => r.id).sort());
  });
});
