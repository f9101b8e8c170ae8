import { queryGameServerInfo } from 'steam-server-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { grantPremium, issueKey, setAdmin } from '../identity/identity-fixtures';
import { api, freeBody, until } from './servers-client';

let server: TestServerWithLogin;
let nextId = 76561198300000000n;
const newUser = () => server.login(String(nextId++));

beforeAll(async () => {
  server = await startTestServerWithLogin({ SERVER_REGION_CAPACITY: '3' }, { serverTiming: { startPollMs: 50 } });
}, 60_000);
afterAll(() => server?.close());

const reservation = (cookie: string, id: number) => api(server, `/api/servers/${id}`, { cookie });

describe('server reservations', () => {
  it('a free reservation goes active with a connect address that answers A2S_INFO', async () => {
    const { cookie } = await newUser();
    const created = await api(server, '/api/servers', { method: 'POST', cookie, body: freeBody() });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tier: 'free', status: 'provisioning', region: 'eu-central', map: 'cp_process_final', rcon_password: 'rcon-secret-1', connect_address: null });
    const active = await until(() => reservation(cookie, created.body.id), (r) => r.body.status === 'active');
    const info = await queryGameServerInfo(active.body.connect_address, 1, 2_000);
    expect(info.map).toBe('cp_process_final');
    expect(Date.parse(active.body.ends_at) - Date.parse(active.body.starts_at)).toBe(120 * 60_000);
    await api(server, `/api/servers/${created.body.id}`, { method: 'DELETE', cookie });
  });

  it('allows one free reservation at a time (409) and at most 120 minutes (400)', async () => {
    const { cookie } = await newUser();
    expect((await api(server, '/api/servers', { method: 'POST', cookie, body: freeBody({ duration_minutes: 121 }) })).status).toBe(400);
    const first = await api(server, '/api/servers', { method: 'POST', cookie, body: freeBody({ duration_minutes: 30 }) });
    expect(first.status).toBe(201);
    const second = await api(server, '/api/servers', { method: 'POST', cookie, body: freeBody() });
    expect(second).toEqual({ status: 409, body: { error: 'you already have a free reservation; end it first' } });
    expect((await api(server, `/api/servers/${first.body.id}`, { method: 'DELETE', cookie })).status).toBe(204);
    expect((await api(server, '/api/servers', { method: 'POST', cookie, body: freeBody() })).status).toBe(201);
  });

  it('refuses the premium tier without premium (402) and allows up to 600 minutes with it', async () => {
    const { cookie, user } = await newUser();
    expect((await api(server, '/api/servers', { method: 'POST', cookie, body: freeBody({ tier: 'premium', duration_minutes: 300 }) })).status).toBe(402);
    await grantPremium(server, user.id, Date.now());
    expect((await api(server, '/api/servers', { method: 'POST', cookie, body: freeBody({ tier: 'premium', duration_minutes: 601 }) })).status).toBe(400);
    const made = await api(server, '/api/servers', { method: 'POST', cookie, body: freeBody({ tier: 'premium', duration_minutes: 600, region: 'us-east' }) });
    expect(made.status).toBe(201);
    expect(made.body.tier).toBe('premium');
    await api(server, `/api/servers/${made.body.id}`, { method: 'DELETE', cookie });
  });

  it('rejects an unknown region, map or preset and a short RCON password with 400', async () => {
    const { cookie } = await newUser();
    for (const body of [freeBody({ region: 'mars' }), freeBody({ map: 'de_dust2' }), freeBody({ config_preset: 'pub' }), freeBody({ rcon_password: 'short' })]) {
      const answer = await api(server, '/api/servers', { method: 'POST', cookie, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toEqual(expect.any(String));
    }
  });

  it('shows the RCON and server passwords to the owner and admins only; others get 403 on the record', async () => {
    const owner = await newUser();
    const other = await newUser();
    const admin = await newUser();
    await setAdmin(server, admin.user.id, true);
    const made = await api(server, '/api/servers', { method: 'POST', cookie: owner.cookie, body: freeBody({ server_password: 'letmein', region: 'us-east' }) });
    expect((await reservation(other.cookie, made.body.id)).status).toBe(403);
    expect((await reservation(admin.cookie, made.body.id)).body).toMatchObject({ rcon_password: 'rcon-secret-1', server_password: 'letmein' });
    expect((await api(server, '/api/servers/99999', { cookie: owner.cookie })).status).toBe(404);
    expect((await api(server, '/api/servers/mine')).status).toBe(401);
    await api(server, `/api/servers/${made.body.id}`, { method: 'DELETE', cookie: admin.cookie });
  });

  it('DELETE destroys the server at once, logs every status, and a second DELETE is 409', async () => {
    const { cookie } = await newUser();
    const made = await api(server, '/api/servers', { method: 'POST', cookie, body: freeBody() });
    const active = await until(() => reservation(cookie, made.body.id), (r) => r.body.status === 'active');
    expect((await api(server, `/api/servers/${made.body.id}`, { method: 'DELETE', cookie })).status).toBe(204);
    const ended = await reservation(cookie, made.body.id);
    expect(ended.body).toMatchObject({ status: 'ended', connect_address: null });
    expect(ended.body.ended_at).toEqual(expect.any(String));
    await expect(queryGameServerInfo(active.body.connect_address, 1, 300)).rejects.toThrow();
    expect((await api(server, `/api/servers/${made.body.id}`, { method: 'DELETE', cookie })).status).toBe(409);
    const log = await server.server.servers.repo.statusLog(made.body.id);
    expect(log.map((l) => l.status)).toEqual(['provisioning', 'active', 'ending', 'ended']);
  });

  it('schedules only with a premium key, in the future and at most 30 days ahead; scheduled/mine lists it and cancelling frees it', async () => {
    const { cookie, user } = await newUser();
    const startsAt = new Date(Date.now() + 2 * 60 * 60_000).toISOString();
    const body = freeBody({ tier: 'premium', duration_minutes: 60, starts_at: startsAt });
    expect((await api(server, '/api/servers/schedule', { method: 'POST', cookie, body })).status).toBe(401);
    await grantPremium(server, user.id, Date.now());
    const key = await issueKey(server, cookie, 'premium');
    const past = await api(server, '/api/servers/schedule', { method: 'POST', bearer: key.raw, body: { ...body, starts_at: new Date(Date.now() - 1000).toISOString() } });
    expect(past.status).toBe(400);
    const far = await api(server, '/api/servers/schedule', { method: 'POST', bearer: key.raw, body: { ...body, starts_at: new Date(Date.now() + 31 * 24 * 3600_000).toISOString() } });
    expect(far.status).toBe(400);
    const made = await api(server, '/api/servers/schedule', { method: 'POST', bearer: key.raw, body });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ status: 'pending', starts_at: startsAt });
    expect((await api(server, '/api/servers/scheduled/mine', { bearer: key.raw })).body.map((r: { id: number }) => r.id)).toEqual([made.body.id]);
    expect((await api(server, `/api/servers/scheduled/${made.body.id}`, { method: 'DELETE', cookie })).status).toBe(204);
    expect((await reservation(cookie, made.body.id)).body.status).toBe('cancelled');
    expect((await api(server, `/api/servers/scheduled/${made.body.id}`, { method: 'DELETE', cookie })).status).toBe(404);
  });

  it('never books a region past its capacity, counting schedules that overlap', async () => {
    const region = 'us-east';
    const owners = await Promise.all([newUser(), newUser(), newUser(), newUser()]);
    for (const o of owners) await grantPremium(server, o.user.id, Date.now());
    const start = Date.now() + 3 * 3600_000;
    const at = (h: number) => new Date(start + h * 3600_000).toISOString();
    const keys = await Promise.all(owners.map((o) => issueKey(server, o.cookie, 'premium')));
    const book = (i: number, h: number, minutes: number) =>
      api(server, '/api/servers/schedule', { method: 'POST', bearer: keys[i].raw, body: freeBody({ region, tier: 'premium', starts_at: at(h), duration_minutes: minutes }) });
    // Capacity 3: three overlapping bookings fill the hour; a fourth overlapping it is refused,
    // one starting when they end fits.
    expect((await book(0, 0, 60)).status).toBe(201);
    expect((await book(1, 0, 60)).status).toBe(201);
    expect((await book(2, 0.5, 60)).status).toBe(201);
    expect((await book(3, 0.75, 60)).status).toBe(409);
    expect((await book(3, 1.5, 60)).status).toBe(201);
    const regions = await api(server, '/api/servers/capacity');
    expect(regions.body.regions).toContainEqual({ id: 'eu-central', available: expect.any(Number) });
  });
});
