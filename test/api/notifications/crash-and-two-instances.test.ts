import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeDiscordWebhook, type FakeDiscordWebhook } from '../../fakes/fake-discord-webhook';
import { startFakeSteamOpenId, type FakeSteamOpenId } from '../../fakes/fake-steam-openid';
import { loginAs } from '../../support/login';
import { poll } from '../../support/poll';
import { deleteKeysWithPrefix } from '../../support/redis-prefix';
import { startServerProcess, type SpawnedServer } from '../../support/spawn-server';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';
import { describeOnTwoInstances } from '../../support/two-instances';
import { adminSideOn, type AdminSide } from '../admin/admin-fixtures';
import { nextPlatformId, Player } from '../lobby/lobby-client';
import { FAST_DELIVERY, messagesTo, playUltiduo, registerWebhook, waitForMessagesTo } from './notify-fixtures';

/*
 * Two server processes on one Postgres database and one Redis prefix, posting to one fake
 * Discord: the crash between the platform accepting a message and the instance recording it, and
 * two instances delivering side by side.
 */

let fake: FakeDiscordWebhook;
let provider: FakeSteamOpenId;
let database: TestDatabase;
const processes: SpawnedServer[] = [];
const dataDirs: string[] = [];
const prefix = `tn${randomBytes(5).toString('hex')}:`;
const adminPlatformId = nextPlatformId();
let env: Record<string, string>;

beforeAll(async () => {
  if (!process.env.REDIS_URL || !process.env.DATABASE_URL) return;
  fake = await startFakeDiscordWebhook();
  provider = await startFakeSteamOpenId();
  database = await createTestDatabase();
  env = {
    NODE_ENV: 'test', DATABASE_URL: database.url, REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: prefix,
    SESSION_SECRET: randomBytes(32).toString('base64url'), STEAM_OPENID_URL: provider.url, SEED_DEMO_DATA: 'never', LOG_LEVEL: 'warn',
    ADMIN_PLATFORM_IDS: adminPlatformId, NOTIFY_WEBHOOK_ORIGINS: fake.url, NOTIFY_LEASE_MS: '1500', ...FAST_DELIVERY,
  };
}, 60_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop('SIGKILL')));
  await fake?.close();
  await provider?.close();
  await database?.drop();
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  if (process.env.REDIS_URL) await deleteKeysWithPrefix(process.env.REDIS_URL, prefix);
});

async function startInstance(): Promise<SpawnedServer & { admin: AdminSide; login(id: string): ReturnType<typeof loginAs> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'league-notify-'));
  dataDirs.push(dataDir);
  const server = await startServerProcess({ ...env, DATA_DIR: dataDir });
  processes.push(server);
  const login = (id: string) => loginAs(server, provider, id);
  return { ...server, login, admin: await adminSideOn({ url: server.url, login }, adminPlatformId) };
}

const announce = (admin: AdminSide, title: string) => admin.asKey('/api/admin/announcements', { method: 'POST', body: { title, body: '' } });
const titlesTo = (url: string) => messagesTo(fake, url).map((m) => m.body.embeds![0].title as string);

describeOnTwoInstances('notifications across a crash and across two instances', () => {
  it('after a kill -9 between the platform accepting a message and its "sent" mark, a restart sends that one message again and nothing else twice', async () => {
    const first = await startInstance();
    const hook = await registerWebhook(first.admin, fake, ['announcement.published']);
    fake.script(hook.url, { kind: 'accept_and_hold' });
    const held = new Promise<void>((resolve) => fake.onHeld(resolve));
    for (const title of ['one', 'two', 'three']) expect((await announce(first.admin, title)).status).toBe(201);
    await held;
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startInstance();
    const got = await waitForMessagesTo(fake, hook.url, 4);
    // "one" twice: the platform had posted it when the first process died unrecorded. Bounded:
    // only the message in flight at the crash, and the lease (1.5 s here) kept anyone else from
    // sending meanwhile.
    expect(got.map((m) => m.body.embeds![0].title)).toEqual(['one', 'one', 'two', 'three']);
    const deliveries = (await second.admin.asKey(`/api/admin/notifications/deliveries?webhook_id=${hook.id}`)).body.deliveries;
    expect(deliveries.map((d: { status: string }) => d.status)).toEqual(['sent', 'sent', 'sent']);
    await second.stop();
  }, 90_000);

  it('two instances sharing Redis and Postgres deliver every event once per webhook, in order', async () => {
    const a = await startInstance();
    const b = await startInstance();
    const hooks = [
      await registerWebhook(a.admin, fake, ['announcement.published', 'lobby.created', 'lobby.ended']),
      await registerWebhook(b.admin, fake, ['announcement.published', 'lobby.live']),
    ];
    // A 429 and a 5xx on the way, so that a retry meets the other instance's polling.
    fake.script(hooks[0].url, { kind: 'ok' }, { kind: 'rate_limited', retryAfterS: 0.3 });
    fake.script(hooks[1].url, { kind: 'server_error' });
    const titles = Array.from({ length: 12 }, (_, i) => `news ${i + 1}`);
    for (const [i, title] of titles.entries()) expect((await announce(i % 2 === 0 ? a.admin : b.admin, title)).status).toBe(201);
    const players = await Promise.all([1, 2, 3, 4].map(async (n) => {
      const { cookie, user } = await (n % 2 === 0 ? a : b).login(nextPlatformId());
      return new Player(n % 2 === 0 ? a.url : b.url, cookie, user);
    }));
    const code = await playUltiduo(a.url, players, 'Split duo');

    await waitForMessagesTo(fake, hooks[0].url, titles.length + 2);
    await waitForMessagesTo(fake, hooks[1].url, titles.length + 1);
    // Everything pending is sent (nothing more can arrive) before counting. Polled, not awaited as
    // one more request: the last post may have reached the fake before its "sent" mark was written.
    await poll(
      async () => (await a.admin.asKey('/api/admin/notifications/deliveries?status=pending')).body.total as number,
      (pending) => pending === 0,
      { withinMs: 30_000, everyMs: 100, what: 'no delivery pending' },
    );
    expect(titlesTo(hooks[0].url)).toEqual([...titles, 'Split duo', 'Split duo']);
    expect(messagesTo(fake, hooks[0].url).slice(-2).map((m) => m.body.content)).toEqual([
      expect.stringMatching(new RegExp(`^New ultiduo lobby: Split duo .*/lobby/${code}$`)),
      expect.stringMatching(/^Split duo ended 3:1 /),
    ]);
    expect(titlesTo(hooks[1].url)).toEqual([...titles, 'Split duo']);
  }, 120_000);
});
