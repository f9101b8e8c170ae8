import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config';
import { startServer, type RunningServer } from '../../../src/main';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { grantPremium, issueKey, movableClock } from '../identity/identity-fixtures';
import { api, freeBody, until } from './servers-client';

const clock = movableClock();
let first: TestServerWithLogin | undefined;
let second: RunningServer | undefined;

afterAll(async () => {
  await second?.close();
  await first?.close();
});

describe('reservation lifecycle across a restart', () => {
  it('provisions a reservation scheduled before the restart when its time comes', async () => {
    first = await startTestServerWithLogin({}, { clock: clock.now, serverTiming: { startPollMs: 50 } });
    const { cookie, user } = await first.login('76561198600000001');
    await grantPremium(first, user.id, clock.now());
    const key = await issueKey(first, cookie, 'premium');
    const startsAt = new Date(clock.now() + 60 * 60_000).toISOString();
    const made = await api(first, '/api/servers/schedule', { method: 'POST', bearer: key.raw, body: freeBody({ tier: 'premium', starts_at: startsAt, duration_minutes: 60 }) });
    expect(made.status).toBe(201);
    await first.server.close();

    second = await startServer({ config: loadConfig(first.env), clock: clock.now, serverTiming: { startPollMs: 50 } });
    clock.advanceMs(60 * 60_000);
    const active = await until(() => second!.servers.repo.byId(made.body.id), (r) => r?.status === 'active');
    expect(active!.connectAddress).toMatch(/^127\.0\.0\.1:\d+$/);
  });
});
