import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastAudit, startAdminWorld, type AdminWorld } from './admin-fixtures';

let world: AdminWorld;
beforeAll(async () => {
  world = await startAdminWorld();
}, 60_000);
afterAll(() => world?.server.close());

const publicRead = (path: string) => fetch(`${world.server.url}${path}`).then((r) => r.json());
const HOUR = 3_600_000;

describe('announcements', () => {
  it('a published announcement is the active one at once, and an edit and a delete show at once too', async () => {
    await publicRead('/api/public/announcements/active'); // warm the 30 s cache
    const created = await world.asKey('/api/admin/announcements', { method: 'POST', body: { title: 'Cup on Sunday', body: 'Sign up now', level: 'warning' } });
    expect(created).toMatchObject({ status: 201, body: { title: 'Cup on Sunday', body: 'Sign up now', level: 'warning', ends_at: null } });
    expect(await publicRead('/api/public/announcements/active')).toMatchObject({ id: created.body.id, title: 'Cup on Sunday', active: true });

    const edited = await world.asKey(`/api/admin/announcements/${created.body.id}`, { method: 'PATCH', body: { title: 'Cup moved to Monday' } });
    expect(edited).toMatchObject({ status: 200, body: { title: 'Cup moved to Monday', body: 'Sign up now', level: 'warning' } });
    expect(await publicRead('/api/public/announcements/active')).toMatchObject({ title: 'Cup moved to Monday' });
    expect(await lastAudit(world, 'announcement.update')).toMatchObject({
      actor_id: world.admin.id, target_type: 'announcement', target_id: String(created.body.id),
      before: { title: 'Cup on Sunday' }, after: { title: 'Cup moved to Monday' },
    });

    expect((await world.asKey(`/api/admin/announcements/${created.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await publicRead('/api/public/announcements/active')).id).not.toBe(created.body.id);
    expect(await lastAudit(world, 'announcement.delete')).toMatchObject({ before: { id: created.body.id }, after: null });
    expect((await world.asKey(`/api/admin/announcements/${created.body.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('the active one is the newest whose window contains now: a future one waits its turn', async () => {
    const current = await world.asKey('/api/admin/announcements', { method: 'POST', body: { title: 'Now', body: '' } });
    const later = await world.asKey('/api/admin/announcements', {
      method: 'POST', body: { title: 'Later', body: '', starts_at: new Date(Date.now() + HOUR).toISOString() },
    });
    expect(later.status).toBe(201);
    expect(await publicRead('/api/public/announcements/active')).toMatchObject({ id: current.body.id, title: 'Now' });
  });

  it('refuses a window that ends before it starts', async () => {
    const start = Date.now() + HOUR;
    const answer = await world.asKey('/api/admin/announcements', {
      method: 'POST', body: { title: 'x', body: '', starts_at: new Date(start).toISOString(), ends_at: new Date(start - 1).toISOString() },
    });
    expect(answer).toMatchObject({ status: 400, body: { error: expect.stringMatching(/ends_at/) } });
  });
});

describe('changelog', () => {
  it('entries feed the public changelog at once, edited and deleted with an audit row each', async () => {
    await publicRead('/api/public/changelog');
    const created = await world.asKey('/api/admin/changelog', { method: 'POST', body: { version: '1.4.0', title: 'Ultiduo lobbies', body: 'Now with medics' } });
    expect(created).toMatchObject({ status: 201, body: { version: '1.4.0', title: 'Ultiduo lobbies' } });
    expect((await publicRead('/api/public/changelog'))[0]).toMatchObject({ id: created.body.id, title: 'Ultiduo lobbies' });
    expect(await lastAudit(world, 'changelog.create')).toMatchObject({ target_type: 'changelog', target_id: String(created.body.id), before: null, after: { version: '1.4.0' } });

    await world.asKey(`/api/admin/changelog/${created.body.id}`, { method: 'PATCH', body: { body: 'Now with medics and soldiers' } });
    expect((await publicRead('/api/public/changelog'))[0]).toMatchObject({ body: 'Now with medics and soldiers', version: '1.4.0' });
    expect((await world.asKey(`/api/admin/changelog/${created.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await publicRead('/api/public/changelog')).map((e: { id: number }) => e.id)).not.toContain(created.body.id);
    expect((await world.asKey('/api/admin/changelog/99999999', { method: 'PATCH', body: { title: 'x' } })).status).toBe(404);
  });
});

describe('ELO override', () => {
  it('sets the rating on every read, in the rating history, and audits before and after', async () => {
    const player = await world.player();
    await publicRead('/api/public/leaderboard');
    const answer = await world.asKey(`/api/admin/users/${player.id}/elo`, { method: 'POST', body: { elo: 4321, reason: 'smurf account merged' } });
    expect(answer).toMatchObject({ status: 200, body: { user_id: player.id, elo_before: 1000, elo_after: 4321 } });
    expect((await player.get('/api/users/me')).body.elo).toBe(4321);
    expect((await publicRead(`/api/users/card/${player.id}`)).elo).toBe(4321);
    expect((await publicRead('/api/public/leaderboard'))[0]).toMatchObject({ user: { id: player.id }, elo: 4321 });
    expect(await publicRead(`/api/users/${player.user.platform_id}/rating-history`)).toEqual([
      { kind: 'adjustment', elo_before: 1000, elo_after: 4321, match_id: null, reason: 'smurf account merged', at: expect.any(String) },
    ]);
    expect(await lastAudit(world, 'user.elo')).toMatchObject({
      actor_id: world.admin.id, target_type: 'user', target_id: String(player.id), before: { elo: 1000 }, after: { elo: 4321 }, reason: 'smurf account merged',
    });
  });

  it('refuses a rating out of range, an empty reason and an unknown user', async () => {
    const player = await world.player();
    expect((await world.asKey(`/api/admin/users/${player.id}/elo`, { method: 'POST', body: { elo: -1, reason: 'x' } })).status).toBe(400);
    expect((await world.asKey(`/api/admin/users/${player.id}/elo`, { method: 'POST', body: { elo: 1500, reason: '' } })).status).toBe(400);
    expect((await world.asKey('/api/admin/users/99999999/elo', { method: 'POST', body: { elo: 1500, reason: 'x' } })).status).toBe(404);
    expect((await fetch(`${world.server.url}/api/users/76561190000000000/rating-history`)).status).toBe(404);
  });
});

describe('the audit', () => {
  it('filters by actor, target and action, newest first, a page at a time', async () => {
    const player = await world.player();
    await world.asKey(`/api/admin/users/${player.id}/elo`, { method: 'POST', body: { elo: 1100, reason: 'one' } });
    await world.asKey(`/api/admin/users/${player.id}/elo`, { method: 'POST', body: { elo: 1200, reason: 'two' } });
    const page = await world.asKey(`/api/admin/audit?target_type=user&target_id=${player.id}&actor_id=${world.admin.id}`);
    expect(page.body).toMatchObject({ total: 2, page: 1, limit: 50 });
    expect(page.body.entries.map((e: { reason: string }) => e.reason)).toEqual(['two', 'one']);
    const second = await world.asKey(`/api/admin/audit?target_type=user&target_id=${player.id}&limit=1&page=2`);
    expect(second.body.entries.map((e: { reason: string }) => e.reason)).toEqual(['one']);
    expect((await world.asKey(`/api/admin/audit?actor_id=${player.id}`)).body).toMatchObject({ total: 0, entries: [] });
    expect((await world.asKey('/api/admin/audit?actor_id=abc')).status).toBe(400);
  });
});
