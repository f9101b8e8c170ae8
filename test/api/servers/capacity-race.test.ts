import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LoggedIn } from '../../support/login';
import { describeOnTwoInstances, startTwoInstances, type Instance, type TwoInstances } from '../../support/two-instances';
import { api, freeBody } from './servers-client';

/*
 * Two server processes sharing Postgres and Redis, as behind a load balancer: concurrent creates
 * through both must never book a region past its capacity, nor give one user two free servers.
 */
describeOnTwoInstances('region capacity across two instances', () => {
  let instances: TwoInstances;
  let first: Instance;
  let second: Instance;
  let users: LoggedIn[] = [];
  let nextId = 76561198400000000n;

  beforeAll(async () => {
    instances = await startTwoInstances({ SERVER_REGION_CAPACITY: '3' });
    [first, second] = instances.servers;
    users = await Promise.all(Array.from({ length: 12 }, () => first.login(String(nextId++))));
  }, 120_000);
  afterAll(() => instances?.close());

  it('books exactly the capacity when twelve users create at once through both instances', async () => {
    const answers = await Promise.all(
      users.map((u, i) => api(i % 2 ? second : first, '/api/servers', { method: 'POST', cookie: u.cookie, body: freeBody({ region: 'us-east' }) })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 201, ...Array(9).fill(409)]);
    const [{ n }] = await instances.database.db.em().execute(`select count(*)::int as n from server_reservations where region = 'us-east'`);
    expect(n).toBe(3);
  });

  it('gives a user one free reservation when they create through both instances at once', async () => {
    const user = users[11];
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => api(i % 2 ? second : first, '/api/servers', { method: 'POST', cookie: user.cookie, body: freeBody() })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });
});
