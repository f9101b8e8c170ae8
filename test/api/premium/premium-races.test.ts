import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakePayPal, type FakePayPal } from '../../fakes/fake-paypal';
import { describeOnTwoInstances, startTwoInstances, type Instance, type TwoInstances } from '../../support/two-instances';
import { nextPlatformId } from '../lobby/lobby-client';
import { call } from '../identity/identity-fixtures';
import { approveAsBuyer, capture, captureGifts, createOrder, paypalEnv, redeem } from './premium-fixtures';

/*
 * The money paths on two server processes sharing Postgres and Redis, as behind a load balancer:
 * two `src/main.ts` processes on the same database, Redis prefix and session secret, paying at one
 * fake PayPal. Needs DATABASE_URL and REDIS_URL (one embedded PGlite serves one process); skipped
 * without them unless CI is set, where it fails instead.
 */
describeOnTwoInstances('premium on two server processes', () => {
  let paypal: FakePayPal;
  let two: TwoInstances;
  let first: Instance;
  let second: Instance;

  beforeAll(async () => {
    paypal = await startFakePayPal();
    two = await startTwoInstances(paypalEnv(paypal));
    [first, second] = two.servers;
  }, 120_000);
  afterAll(async () => {
    await two?.close();
    await paypal?.close();
  });

  const instances = () => [first, second];
  /** A SQL read straight from the shared database, for what an operator would see. */
  const rows = (sql: string, params: unknown[] = []): Promise<Array<Record<string, any>>> => two.database.db.em().execute(sql, params);

  it('grants once when the same order is captured on both at the same moment', async () => {
    for (let round = 0; round < 5; round++) {
      const user = await first.login(nextPlatformId());
      const order = await createOrder(first, user.cookie, { plan: '3m' });
      await approveAsBuyer(order.approval_url);
      const answers = await Promise.all([...instances(), ...instances()].map((instance) => capture(instance, user.cookie, order.order_id)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      const bodies = await Promise.all(answers.map((a) => a.json()));
      for (const body of bodies) expect(body).toEqual(bodies[0]);
      expect(await rows('select count(*)::int as n from premium_grants where user_id = ?', [user.user.id])).toEqual([{ n: 1 }]);
    }
  });

  it('issues one set of codes when a gift order is captured on both at once', async () => {
    const user = await first.login(nextPlatformId());
    const order = await createOrder(second, user.cookie, { plan: '6m', gift_quantity: 3 });
    await approveAsBuyer(order.approval_url);
    const answers = await Promise.all(instances().map((instance) => captureGifts(instance, user.cookie, order.order_id)));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const [a, b] = await Promise.all(answers.map((r) => r.json()));
    expect(a).toHaveLength(3);
    expect(b).toEqual(a);
    expect(await rows('select count(*)::int as n from gift_codes where order_id = ?', [order.order_id])).toEqual([{ n: 3 }]);
  });

  it('lets exactly one of two users redeeming one code on the two instances succeed', async () => {
    const buyer = await first.login(nextPlatformId());
    const order = await createOrder(first, buyer.cookie, { plan: '12m', gift_quantity: 5 });
    await approveAsBuyer(order.approval_url);
    const codes = ((await (await captureGifts(first, buyer.cookie, order.order_id)).json()) as Array<{ code: string }>).map((c) => c.code);
    for (const code of codes) {
      const [alice, bob] = await Promise.all([first.login(nextPlatformId()), first.login(nextPlatformId())]);
      const answers = await Promise.all([redeem(first, alice.cookie, code), redeem(second, bob.cookie, code)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 410]);
      const grants = await rows('select user_id from premium_grants where source = ?', [`gift:${code}`]);
      expect(grants).toHaveLength(1);
      const winner = answers[0].status === 200 ? alice : bob;
      expect(grants[0].user_id).toBe(winner.user.id);
      const [row] = await rows('select status, redeemed_by_id from gift_codes where code = ?', [code]);
      expect(row).toEqual({ status: 'redeemed', redeemed_by_id: winner.user.id });
    }
  });

  it('sees a capture made on one instance from the other', async () => {
    const user = await first.login(nextPlatformId());
    const order = await createOrder(first, user.cookie, { plan: '6m' });
    await approveAsBuyer(order.approval_url);
    expect((await capture(second, user.cookie, order.order_id)).status).toBe(200);
    const status = await (await call(first, '/api/premium/status', { cookie: user.cookie })).json();
    expect(status).toMatchObject({ active: true, plan: '6m', source: `paypal:${order.order_id}` });
  });
});
