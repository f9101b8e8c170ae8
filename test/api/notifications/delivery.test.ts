import { describe, expect, it } from 'vitest';
import type { Player } from '../lobby/lobby-client';
import { messagesTo, playUltiduo, registerWebhook, useNotifyWorld, waitForMessagesTo } from './notify-fixtures';
import { poll } from '../../support/poll';

const notify = useNotifyWorld();

const four = async (): Promise<Player[]> => Promise.all([1, 2, 3, 4].map(() => notify.world.player()));
const deliveries = async (webhookId: number, status?: string) =>
  (await notify.world.asKey(`/api/admin/notifications/deliveries?webhook_id=${webhookId}&limit=100${status ? `&status=${status}` : ''}`)).body.deliveries;
const LOBBY_EVENTS = ['lobby.created', 'lobby.needs_players', 'lobby.live', 'lobby.ended'];

describe('delivering lobby events', () => {
  it('posts created, needs 2 more, live and ended (with the score) in that order, once each, with ?wait=true', async () => {
    const hook = await registerWebhook(notify.world, notify.fake, LOBBY_EVENTS);
    const code = await playUltiduo(notify.world.server.url, await four(), 'Tuesday duo');
    const got = await waitForMessagesTo(notify.fake, hook.url, 4);
    expect(got.map((m) => m.body.content)).toEqual([
      `New ultiduo lobby: Tuesday duo https://pugs.example.org/lobby/${code}`,
      `Tuesday duo needs 2 more players https://pugs.example.org/lobby/${code}`,
      `Tuesday duo is live https://pugs.example.org/lobby/${code}`,
      `Tuesday duo ended 3:1 https://pugs.example.org/lobby/${code}`,
    ]);
    expect(got.every((m) => m.wait === 'true')).toBe(true);
    const ended = got[3].body.embeds![0];
    expect(ended).toMatchObject({ title: 'Tuesday duo', url: `https://pugs.example.org/lobby/${code}` });
    expect(ended.fields).toEqual(expect.arrayContaining([{ name: 'Format', value: 'ultiduo', inline: true }, { name: 'Score', value: 'RED 3 : 1 BLU', inline: false }]));
    expect(got[1].body.embeds![0].fields).toEqual(expect.arrayContaining([{ name: 'Players needed', value: '2', inline: true }]));
    expect((await deliveries(hook.id, 'sent')).length).toBe(4);
  });

  it('sends a webhook only the events it subscribed to', async () => {
    const hook = await registerWebhook(notify.world, notify.fake, ['lobby.ended']);
    await playUltiduo(notify.world.server.url, await four(), 'Only the end');
    const got = await waitForMessagesTo(notify.fake, hook.url, 1);
    expect(got.map((m) => m.body.content)).toEqual([expect.stringMatching(/^Only the end ended 3:1 /)]);
    expect(await deliveries(hook.id)).toHaveLength(1);
  });

  it('announces a new announcement', async () => {
    const hook = await registerWebhook(notify.world, notify.fake, ['announcement.published']);
    await notify.world.asKey('/api/admin/announcements', { method: 'POST', body: { title: 'Cup on Sunday', body: 'Sign up @everyone' } });
    const [message] = await waitForMessagesTo(notify.fake, hook.url, 1);
    expect(message.body).toMatchObject({ content: 'Announcement: Cup on Sunday', allowed_mentions: { parse: [] }, embeds: [{ title: 'Cup on Sunday', description: 'Sign up @everyone' }] });
  });
});

describe('what the platform answers', () => {
  it("waits the retry_after of a 429 before trying again, and the message then goes once", async () => {
    const hook = await registerWebhook(notify.world, notify.fake, ['announcement.published']);
    notify.fake.script(hook.url, { kind: 'rate_limited', retryAfterS: 0.6 });
    await notify.world.asKey('/api/admin/announcements', { method: 'POST', body: { title: 'Rate limited', body: '' } });
    const [message] = await waitForMessagesTo(notify.fake, hook.url, 1);
    const tries = notify.fake.requests.filter((r) => hook.url.endsWith(r.webhook));
    expect(tries.map((r) => r.answer)).toEqual(['rate_limited', 'ok']);
    expect(message.at - tries[0].at).toBeGreaterThanOrEqual(600);
    expect(await deliveries(hook.id)).toMatchObject([{ status: 'sent', attempts: 2, failures: 0 }]);
  });

  it('backs off after 5xx and delivers when the platform is back', async () => {
    const hook = await registerWebhook(notify.world, notify.fake, ['announcement.published']);
    notify.fake.script(hook.url, { kind: 'server_error', status: 502 }, { kind: 'server_error', status: 503 });
    await notify.world.asKey('/api/admin/announcements', { method: 'POST', body: { title: 'Flaky', body: '' } });
    await waitForMessagesTo(notify.fake, hook.url, 1);
    const tries = notify.fake.requests.filter((r) => hook.url.endsWith(r.webhook));
    expect(tries.map((r) => r.answer)).toEqual(['server_error', 'server_error', 'ok']);
    // Base 50 ms: the second back-off (100 ms with at least half of it fixed) is at least 50 ms.
    expect(tries[2].at - tries[1].at).toBeGreaterThanOrEqual(50);
    expect(await deliveries(hook.id)).toMatchObject([{ status: 'sent', attempts: 3, failures: 2 }]);
  });

  it('marks a delivery failed after 10 failed tries, and the next one still goes', async () => {
    const hook = await registerWebhook(notify.world, notify.fake, ['announcement.published']);
    notify.fake.script(hook.url, ...Array.from({ length: 10 }, () => ({ kind: 'server_error' as const })));
    await notify.world.asKey('/api/admin/announcements', { method: 'POST', body: { title: 'Doomed', body: '' } });
    await notify.world.asKey('/api/admin/announcements', { method: 'POST', body: { title: 'Next', body: '' } });
    const [message] = await waitForMessagesTo(notify.fake, hook.url, 1, 30_000);
    expect(message.body.content).toBe('Announcement: Next');
    expect(await deliveries(hook.id, 'failed')).toMatchObject([{ status: 'failed', attempts: 10, failures: 10, last_status: 502 }]);
  }, 40_000);

  it('disables the webhook on 404 Unknown Webhook and sends it nothing more', async () => {
    const hook = await registerWebhook(notify.world, notify.fake, ['announcement.published']);
    notify.fake.script(hook.url, { kind: 'unknown_webhook' });
    await notify.world.asKey('/api/admin/announcements', { method: 'POST', body: { title: 'Into the void', body: '' } });
    // Polled: the one request may reach the fake before this line could count the ones before it.
    const view = await poll(async () => (await notify.world.asKey(`/api/admin/notifications/webhooks/${hook.id}`)).body, (read) => !read.enabled, { what: 'the webhook disabled' });
    expect(view).toMatchObject({ enabled: false, disabled_reason: expect.stringMatching(/404/) });
    expect(await deliveries(hook.id)).toMatchObject([{ status: 'failed', last_status: 404 }]);
    await notify.world.asKey('/api/admin/announcements', { method: 'POST', body: { title: 'After', body: '' } });
    expect(await deliveries(hook.id)).toHaveLength(1);
    expect(messagesTo(notify.fake, hook.url)).toHaveLength(0);
  });

  it('keeps the order per webhook: a message waiting on a back-off holds back the ones after it', async () => {
    const hook = await registerWebhook(notify.world, notify.fake, ['announcement.published']);
    notify.fake.script(hook.url, { kind: 'server_error' }, { kind: 'server_error' }, { kind: 'server_error' });
    for (const title of ['first', 'second', 'third']) await notify.world.asKey('/api/admin/announcements', { method: 'POST', body: { title, body: '' } });
    const got = await waitForMessagesTo(notify.fake, hook.url, 3);
    expect(got.map((m) => m.body.embeds![0].title)).toEqual(['first', 'second', 'third']);
  });
});
