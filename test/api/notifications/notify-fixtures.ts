import { adminSideOn, type AdminSide, type AdminWorld } from '../admin/admin-fixtures';
import { startTestServerWithLogin } from '../../support/login';
import type { FakeDiscordWebhook, ReceivedMessage } from '../../fakes/fake-discord-webhook';
import { draftAll, lobbyAt, nextPlatformId, type Player } from '../lobby/lobby-client';

/** Settings that make delivery quick enough to wait for in a test. */
export const FAST_DELIVERY = { NOTIFY_POLL_MS: '50', NOTIFY_RETRY_BASE_MS: '50', NOTIFY_TIMEOUT_MS: '2000' };

/** Registers a new webhook of the fake for `events` through the admin route; answers its id and URL. */
export async function registerWebhook(admin: AdminSide, fake: FakeDiscordWebhook, events: string[], name?: string): Promise<{ id: number; url: string }> {
  const url = fake.newWebhook();
  const created = await admin.asKey('/api/admin/notifications/webhooks', { method: 'POST', body: { url, events, ...(name ? { name } : {}) } });
  if (created.status !== 201) throw new Error(`registering a webhook answered ${created.status} ${JSON.stringify(created.body)}`);
  return { id: created.body.id, url };
}

/** The messages the fake received for one webhook URL. */
export const messagesTo = (fake: FakeDiscordWebhook, url: string): ReceivedMessage[] =>
  fake.received.filter((m) => url.endsWith(m.webhook));

/** Waits until `url` has received `n` messages. */
export async function waitForMessagesTo(fake: FakeDiscordWebhook, url: string, n: number, timeoutMs = 15_000): Promise<ReceivedMessage[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = messagesTo(fake, url);
    if (got.length >= n) return got;
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`webhook received ${got.length} of ${n} messages`);
    await fake.waitForMessages(fake.received.length + 1, left).catch(() => undefined);
  }
}

/** An ultiduo (4 places) from creation to the report: created, needs 2, live, ended 3:1. */
export async function playUltiduo(url: string, four: Player[], name: string): Promise<string> {
  const [host, ...rest] = four.map((p) => p.on(url));
  const code: string = (await host.post('/api/lobbies', { format: 'ultiduo', name })).body.code;
  for (const player of rest) await player.command(code, 'join');
  await host.command(code, 'start-draft');
  await draftAll(url, code, [host, ...rest]);
  for (const player of [host, ...rest]) await player.command(code, 'ready');
  const lobby = await lobbyAt(url, code);
  if (lobby.phase !== 'live') throw new Error(`the lobby is ${lobby.phase}, not live`);
  const captain = [host, ...rest].find((p) => p.id === lobby.captains.red)!;
  await captain.command(code, 'report', { score_red: 3, score_blu: 1 }, 201);
  return code;
}

/** An admin world (startAdminWorld) whose server has the notifications settings in `env`. */
export async function startNotifyWorld(env: Record<string, string>): Promise<AdminWorld> {
  const adminPlatformId = nextPlatformId();
  const server = await startTestServerWithLogin({ ADMIN_PLATFORM_IDS: adminPlatformId, ...env });
  return { server, ...(await adminSideOn(server, adminPlatformId)) };
}
