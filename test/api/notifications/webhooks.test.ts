import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastAudit, type AdminWorld } from '../admin/admin-fixtures';
import { FAST_DELIVERY, startNotifyWorld, waitForMessagesTo } from './notify-fixtures';
import { startFakeDiscordWebhook, type FakeDiscordWebhook } from '../../fakes/fake-discord-webhook';

let world: AdminWorld;
let fake: FakeDiscordWebhook;
let environmentUrl: string;
beforeAll(async () => {
  fake = await startFakeDiscordWebhook();
  environmentUrl = fake.newWebhook();
  world = await startNotifyWorld({ NOTIFY_WEBHOOK_ORIGINS: `https://discord.com,${fake.url}`, DISCORD_WEBHOOK_URL: environmentUrl, ...FAST_DELIVERY });
}, 60_000);
afterAll(async () => {
  await world?.server.close();
  await fake?.close();
});

const WEBHOOKS = '/api/admin/notifications/webhooks';

describe('the webhook registry', () => {
  it('registers a webhook and never shows more of its URL than the host and last 4 characters', async () => {
    const url = fake.newWebhook();
    const created = await world.asKey(WEBHOOKS, { method: 'POST', body: { url, events: ['lobby.live', 'lobby.ended'], name: '#pugs' } });
    expect(created).toMatchObject({
      status: 201,
      body: { name: '#pugs', source: 'admin', url_host: new URL(url).host, url_last4: url.slice(-4), events: ['lobby.live', 'lobby.ended'], enabled: true, disabled_reason: null },
    });
    const token = url.split('/').pop()!;
    const reads = [created.body, (await world.asKey(`${WEBHOOKS}/${created.body.id}`)).body, (await world.asKey(WEBHOOKS)).body, await lastAudit(world, 'webhook.create')];
    for (const read of reads) expect(JSON.stringify(read)).not.toContain(token.slice(0, -4));
  });

  it('refuses a URL outside the allowed origins with 400, without echoing it', async () => {
    for (const url of ['https://discord.com.evil.example/api/webhooks/1/abc', 'https://example.com/api/webhooks/1/abc', 'http://discord.com/api/webhooks/1/abc']) {
      const answer = await world.asKey(WEBHOOKS, { method: 'POST', body: { url, events: ['lobby.live'] } });
      expect(answer.status, url).toBe(400);
      expect(answer.body.error).not.toContain('abc');
    }
  });

  it('accepts a URL of the default origins when they are configured', async () => {
    const answer = await world.asKey(WEBHOOKS, { method: 'POST', body: { url: 'https://discord.com/api/webhooks/123/secret-token-wxyz', events: ['lobby.created'] } });
    expect(answer).toMatchObject({ status: 201, body: { url_host: 'discord.com', url_last4: 'wxyz' } });
  });

  it('refuses an unknown event type and an empty event list with 400', async () => {
    const url = fake.newWebhook();
    expect((await world.asKey(WEBHOOKS, { method: 'POST', body: { url, events: ['lobby.exploded'] } })).status).toBe(400);
    expect((await world.asKey(WEBHOOKS, { method: 'POST', body: { url, events: [] } })).status).toBe(400);
  });

  it('changes only the fields given and audits the change with before and after', async () => {
    const created = await world.asKey(WEBHOOKS, { method: 'POST', body: { url: fake.newWebhook(), events: ['lobby.live'] } });
    const patched = await world.asKey(`${WEBHOOKS}/${created.body.id}`, { method: 'PATCH', body: { events: ['lobby.created', 'announcement.published'] } });
    expect(patched).toMatchObject({ status: 200, body: { id: created.body.id, name: created.body.name, events: ['lobby.created', 'announcement.published'] } });
    expect(await lastAudit(world, 'webhook.update')).toMatchObject({
      actor_id: world.admin.id, target_type: 'webhook', target_id: String(created.body.id), before: { events: ['lobby.live'] }, after: { events: ['lobby.created', 'announcement.published'] },
    });
  });

  it('deletes a webhook: 204, then 404', async () => {
    const created = await world.asKey(WEBHOOKS, { method: 'POST', body: { url: fake.newWebhook(), events: ['lobby.live'] } });
    expect((await world.asKey(`${WEBHOOKS}/${created.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await world.asKey(`${WEBHOOKS}/${created.body.id}`)).status).toBe(404);
    expect((await world.asKey(`${WEBHOOKS}/${created.body.id}`, { method: 'DELETE' })).status).toBe(404);
    expect(await lastAudit(world, 'webhook.delete')).toMatchObject({ target_id: String(created.body.id), after: null });
  });

  it('pages the list as the tag areas do and refuses an out-of-range limit with 400', async () => {
    const page = await world.asKey(`${WEBHOOKS}?page=1&limit=2`);
    expect(page).toMatchObject({ status: 200, body: { page: 1, limit: 2, total: expect.any(Number) } });
    expect(page.body.webhooks.length).toBeLessThanOrEqual(2);
    expect((await world.asKey(`${WEBHOOKS}?limit=101`)).status).toBe(400);
    expect((await world.asKey(`${WEBHOOKS}?page=0`)).status).toBe(400);
    expect((await world.asKey('/api/admin/notifications/deliveries?status=lost')).status).toBe(400);
  });

  it('answers 401 without credentials and 403 to a player', async () => {
    expect((await fetch(`${world.server.url}${WEBHOOKS}`)).status).toBe(401);
    const player = await world.player();
    expect((await player.get(WEBHOOKS)).status).toBe(403);
    expect((await player.get('/api/admin/notifications/deliveries')).status).toBe(403);
  });
});

describe('DISCORD_WEBHOOK_URL', () => {
  it('is listed as the environment webhook, receives every event, and is changed only in the environment (409)', async () => {
    const list = (await world.asKey(`${WEBHOOKS}?limit=100`)).body.webhooks;
    const environment = list.find((w: { source: string }) => w.source === 'environment');
    expect(environment).toMatchObject({ name: 'DISCORD_WEBHOOK_URL', url_last4: environmentUrl.slice(-4), enabled: true, events: expect.arrayContaining(['lobby.created', 'announcement.published']) });
    expect((await world.asKey(`${WEBHOOKS}/${environment.id}`, { method: 'PATCH', body: { name: 'mine' } })).status).toBe(409);
    expect((await world.asKey(`${WEBHOOKS}/${environment.id}`, { method: 'DELETE' })).status).toBe(409);
    await world.asKey('/api/admin/announcements', { method: 'POST', body: { title: 'To everyone', body: '' } });
    const [message] = await waitForMessagesTo(fake, environmentUrl, 1);
    expect(message.body.content).toBe('Announcement: To everyone');
  });
});
