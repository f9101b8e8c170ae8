import { describe, expect, it } from 'vitest';
import { entry, nextAddress, sendLogs, useLogWorld } from './client-log-client';

const RATE = 3;

describe('client logs', () => {
  const t = useLogWorld();

  const newest = async (query = '') => (await t.world.asKey(`/api/admin/logs${query}`)).body;

  it('a JSON batch is stored with the time received, no user, a hashed address and the user agent', async () => {
    const message = `json batch ${Date.now()} it's "quoted" \\ ? $1 é`;
    const answer = await sendLogs(t.url, { entries: [entry({ message, context: { attempt: 3 } }), entry({ message, level: 'warn' })] }, { userAgent: 'beacon-ua/2' });
    expect(answer.status).toBe(204);
    const page = await newest(`?q=${encodeURIComponent(message)}`);
    expect(page.total).toBe(2);
    const [first] = page.entries;
    expect(first).toMatchObject({ message, user_id: null, user_agent: 'beacon-ua/2', source: 'web' });
    expect(first.address_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(first.received_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(page.entries.map((e: any) => e.context)).toContainEqual({ attempt: 3 });
  });

  it('text/plain carrying JSON is accepted, as navigator.sendBeacon sends it', async () => {
    const message = `beacon ${Date.now()}`;
    const answer = await sendLogs(t.url, JSON.stringify({ entries: [entry({ message })] }), { contentType: 'text/plain;charset=UTF-8' });
    expect(answer.status).toBe(204);
    expect((await newest(`?q=${encodeURIComponent(message)}`)).total).toBe(1);
  });

  it('another content type is refused with 415', async () => {
    expect((await sendLogs(t.url, JSON.stringify({ entries: [entry()] }), { contentType: 'application/x-www-form-urlencoded' })).status).toBe(415);
  });

  it('a session sent from this site records its user', async () => {
    const player = await t.world.player();
    const message = `with session ${Date.now()}`;
    expect((await sendLogs(t.url, { entries: [entry({ message })] }, { cookie: player.cookie })).status).toBe(204);
    expect((await newest(`?q=${encodeURIComponent(message)}`)).entries[0].user_id).toBe(player.id);
  });

  it('a session cookie riding on another site\'s request is not recorded', async () => {
    const player = await t.world.player();
    const message = `foreign ${Date.now()}`;
    expect((await sendLogs(t.url, { entries: [entry({ message })] }, { cookie: player.cookie, origin: 'https://evil.example' })).status).toBe(204);
    expect((await newest(`?q=${encodeURIComponent(message)}`)).entries[0].user_id).toBeNull();
  });

  it('a body over 64 KB is refused with 413 and nothing is stored', async () => {
    const message = `big ${Date.now()}`;
    const entries = Array.from({ length: 40 }, () => entry({ message: `${message} ${'x'.repeat(1900)}` }));
    const answer = await sendLogs(t.url, { entries });
    expect(answer.status).toBe(413);
    expect((await newest(`?q=${encodeURIComponent(message)}`)).total).toBe(0);
  });

  it('an invalid entry is a 400 naming the field, without echoing it', async () => {
    const answer = await sendLogs(t.url, { entries: [entry({ level: 'loud<script>' })] });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain('level');
    expect(answer.body.error).not.toContain('<script>');
    expect((await sendLogs(t.url, { entries: [] })).status).toBe(400);
    expect((await sendLogs(t.url, { entries: Array.from({ length: 101 }, () => entry()) })).status).toBe(400);
    expect((await sendLogs(t.url, { entries: [entry({ context: { blob: 'y'.repeat(5000) } })] })).status).toBe(400);
    expect((await sendLogs(t.url, { entries: [entry({ message: 'nul \u0000 inside' })] })).status).toBe(400);
  });

  it('the admin read filters by level, source, since and text, newest first, paged', async () => {
    const tag = `filters-${Date.now()}`;
    await sendLogs(t.url, { entries: [entry({ message: `${tag} a`, level: 'info', source: 'bot' }), entry({ message: `${tag} b`, level: 'error', source: 'plugin' })] });
    await sendLogs(t.url, { entries: [entry({ message: `${tag} c 100%_done`, level: 'error', source: 'plugin' })] });
    const q = `q=${encodeURIComponent(tag)}`;
    expect((await newest(`?${q}&level=error`)).entries.map((e: any) => e.message)).toEqual([`${tag} c 100%_done`, `${tag} b`]);
    expect((await newest(`?${q}&source=bot`)).entries.map((e: any) => e.message)).toEqual([`${tag} a`]);
    expect((await newest(`?q=${encodeURIComponent('100%_done')}`)).total).toBe(1);
    expect((await newest(`?q=${encodeURIComponent('100%_xone')}`)).total).toBe(0);
    const paged = await newest(`?${q}&limit=1&page=2`);
    expect(paged).toMatchObject({ total: 3, page: 2, limit: 1 });
    expect(paged.entries.map((e: any) => e.message)).toEqual([`${tag} b`]);
    expect((await newest(`?${q}&since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).total).toBe(0);
  });

  it('the admin read answers 400 to out-of-range paging, 401 without credentials and 403 to a non-admin', async () => {
    expect((await t.world.asKey('/api/admin/logs?limit=101')).status).toBe(400);
    expect((await t.world.asKey('/api/admin/logs?page=0')).status).toBe(400);
    expect((await t.world.asKey('/api/admin/logs?level=loud')).status).toBe(400);
    expect((await fetch(`${t.url}/api/admin/logs`)).status).toBe(401);
    expect((await (await t.world.player()).get('/api/admin/logs')).status).toBe(403);
  });
});

describe('client log rate limits', () => {
  const t = useLogWorld({ CLIENT_LOG_RATE_LIMIT: String(RATE) });

  it('one address gets CLIENT_LOG_RATE_LIMIT requests a minute, then 429 with Retry-After, and the refused batch is not stored', async () => {
    const address = nextAddress();
    for (let i = 0; i < RATE; i++) expect((await sendLogs(t.url, { entries: [entry()] }, { address })).status).toBe(204);
    const message = `refused ${Date.now()}`;
    const refused = await sendLogs(t.url, { entries: [entry({ message })] }, { address });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await t.world.asKey(`/api/admin/logs?q=${encodeURIComponent(message)}`)).body.total).toBe(0);
    expect((await sendLogs(t.url, { entries: [entry()] }, { address: nextAddress() })).status).toBe(204);
  });

  it('one user gets CLIENT_LOG_RATE_LIMIT requests a minute whichever addresses they come from', async () => {
    const player = await t.world.player();
    for (let i = 0; i < RATE; i++) expect((await sendLogs(t.url, { entries: [entry()] }, { cookie: player.cookie })).status).toBe(204);
    const refused = await sendLogs(t.url, { entries: [entry()] }, { cookie: player.cookie });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
  });
});
