import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnTwoInstances, startTwoInstances, type TwoInstances } from '../../support/two-instances';
import { nextPlatformId } from '../lobby/lobby-client';
import { entry, nextAddress, sendLogs } from './client-log-client';

const RATE = 4;

/* The limits live in Redis: a client spreading its requests over a load balancer gets one budget, not one per instance. */
describeOnTwoInstances('client log limits across two server processes', () => {
  let instances: TwoInstances;

  beforeAll(async () => {
    instances = await startTwoInstances({ CLIENT_LOG_RATE_LIMIT: String(RATE), TRUST_PROXY: '127.0.0.1' });
  }, 90_000);
  afterAll(() => instances?.close());

  it('an address alternating between the instances is refused after CLIENT_LOG_RATE_LIMIT requests in all', async () => {
    const address = nextAddress();
    const [a, b] = instances.servers;
    for (let i = 0; i < RATE; i++) expect((await sendLogs((i % 2 === 0 ? a : b).url, { entries: [entry()] }, { address })).status).toBe(204);
    const refusedA = await sendLogs(a.url, { entries: [entry()] }, { address });
    const refusedB = await sendLogs(b.url, { entries: [entry()] }, { address });
    expect([refusedA.status, refusedB.status]).toEqual([429, 429]);
    expect(refusedB.headers.get('retry-after')).not.toBeNull();
  });

  it('a user whose session reaches both instances is refused after CLIENT_LOG_RATE_LIMIT requests in all', async () => {
    const [a, b] = instances.servers;
    const { cookie } = await a.login(nextPlatformId());
    for (let i = 0; i < RATE; i++) expect((await sendLogs((i % 2 === 0 ? a : b).url, { entries: [entry()] }, { cookie })).status).toBe(204);
    expect((await sendLogs(b.url, { entries: [entry()] }, { cookie })).status).toBe(429);
  });
});
