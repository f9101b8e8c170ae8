import { afterAll, beforeAll } from 'vitest';
import { adminSideOn, type AdminSide, type AdminWorld } from '../admin/admin-fixtures';
import { startTestServerWithLogin } from '../../support/login';
import { startFakeDiscordWebhook, type FakeDiscordWebhook, type ReceivedMessage } from '../../fakes/fake-discord-webhook';
import { draftAll, lobbyAt, nextPlatformId, type Player } from '../lobby/lobby-client';
import { poll } from '../../support/poll';

/** Settings that make delivery quick enough to wait for in a test. */
export const FAST_DELIVERY = { NOTIFY_POLL_MS: '50', NOTIFY_RETRY_BASE_MS: '50', NOTIFY_RETRY_MAX_MS: '200', NOTIFY_TIMEOUT_MS: '2000' };

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
  return poll(() => messagesTo(fake, url), (got) => got.length >= n, { withinMs: timeoutMs, what: `${n} messages received by the webhook` });
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

/**
 * A suite's notify world: a fake chat webhook and a server allowed to deliver to it, fast
 * deliveries, started before the suite and closed after it. Read `world` and `fake` inside tests.
 */
export function useNotifyWorld(): { readonly world: AdminWorld; readonly fake: FakeDiscordWebhook } {
  const started: { world?: AdminWorld; fake?: FakeDiscordWebhook } = {};
  beforeAll(async () => {
    started.fake = await startFakeDiscordWebhook();
    started.world = await startNotifyWorld({ NOTIFY_WEBHOOK_ORIGINS: started.fake.url, PUBLIC_URL: 'https://pugs.example.org', ...FAST_DELIVERY });
  }, 60_000);
  afterAll(async () => {
    await started.world?.server.close();
    await started.fake?.close();
  });
  return {
    get world() { return started.world!; },
    get fake() { return started.fake!; },
  };
}
