import { randomBytes } from 'node:crypto';
import { DeliveryRepository } from '../src/db/delivery-repository';
import { notificationOutbox } from '../src/db/notification-outbox';
import type { Database } from '../src/db/orm';
import { WebhookRepository } from '../src/db/webhook-repository';
import type { NotificationEvent } from '../src/domain/notifications/notification-event';
import { UrlCipher, urlHash } from '../src/notifications/url-cipher';
import { startFakeDiscordWebhook, type FakeDiscordWebhook } from '../test/fakes/fake-discord-webhook';
import { startTestServerWithLogin } from '../test/support/login';
import { httpRequest, keepAliveAgent, percentile, postOk } from './http-client';

/*
 * Notifications, in one process with the machine's Postgres and Redis (embedded without them):
 * - delivery throughput: 2,000 queued messages to a fake Discord that answers at once, to one
 *   webhook (sent one at a time, in order) and spread over 8 webhooks (8 sent at once);
 * - the duplicate window: from a 2xx's arrival to its "sent" mark committing;
 * - a lobby command's latency (join and leave in turn, one at a time, through HTTP: each writes
 *   the lobby record and its outbox statement) with an empty outbox, then beside 1,000 queued
 *   deliveries waiting (a webhook paused by a 429), then while 1,000 are being sent.
 */
const COMMANDS = Number(process.env.BENCH_NOTIFY_COMMANDS ?? 400);
const THROUGHPUT_MESSAGES = 2_000;
const QUEUED = 1_000;

interface World {
  db: Database;
  cipher: UrlCipher;
  fake: FakeDiscordWebhook;
  deliveries: DeliveryRepository;
}

let eventCounter = 0;
function events(n: number): NotificationEvent[] {
  return Array.from({ length: n }, () => {
    eventCounter += 1;
    return { type: 'tournament.match_ready', key: `bench:${eventCounter}:${randomBytes(3).toString('hex')}`, payload: { tournament_id: 1, name: 'Bench cup', detail: `match ${eventCounter}` } };
  });
}

async function webhook(world: World, events: NotificationEvent['type'][]): Promise<{ id: number; url: string }> {
  const url = world.fake.newWebhook();
  const row = await world.db.em().transactional((em) =>
    new WebhookRepository(world.db).createIn(em, { name: 'bench', urlCipher: world.cipher.seal(url), urlHash: urlHash(url), urlHost: 'fake', urlTail: url.slice(-4), events }, new Date()),
  );
  return { id: row.id, url };
}

async function enqueue(world: World, n: number): Promise<void> {
  for (let i = 0; i < n; i += 500) await world.db.em().transactional((em) => notificationOutbox.enqueueIn(em, events(Math.min(500, n - i))));
}

async function drained(world: World): Promise<void> {
  while ((await world.deliveries.backlog()) > 0) await new Promise((r) => setTimeout(r, 20));
}

/** Disables every webhook so the next scenario starts with nobody subscribed. */
const disableAll = (world: World) => world.db.em().execute(`update notification_webhooks set enabled = false`);

export async function benchNotifications(): Promise<string[]> {
  const fake = await startFakeDiscordWebhook();
  const server = await startTestServerWithLogin({
    NOTIFY_WEBHOOK_ORIGINS: fake.url, NOTIFY_POLL_MS: '50', COMMAND_RATE_LIMIT: '9999999', LOG_LEVEL: 'silent',
  });
  const lines: string[] = [`  stores: ${server.env.DATABASE_URL?.startsWith('postgres') ? 'Postgres' : 'PGlite'}, ${server.env.REDIS_URL ? 'Redis' : 'in-process live store'}`];
  const world: World = { db: server.server.db, cipher: new UrlCipher(server.env.SESSION_SECRET), fake, deliveries: new DeliveryRepository(server.server.db) };
  try {
    // Throughput, one webhook: strictly one message at a time.
    for (const spread of [1, 8]) {
      await disableAll(world);
      for (let i = 0; i < spread; i++) await webhook(world, ['tournament.match_ready']);
      const before = fake.received.length;
      const started = performance.now();
      await enqueue(world, THROUGHPUT_MESSAGES / spread);
      await drained(world);
      const seconds = (performance.now() - started) / 1000;
      const sent = fake.received.length - before;
      lines.push(`  delivery to ${spread} webhook${spread > 1 ? 's' : ''}: ${sent} messages in ${seconds.toFixed(2)} s = ${Math.round(sent / seconds)} messages/s`);
    }

    // A lobby command beside the outbox.
    const agent = keepAliveAgent(2);
    const [host, guest] = [await server.login(`7656119${randomBytes(5).readUIntBE(0, 5) % 10_000_000_000}`), await server.login(`7656119${randomBytes(5).readUIntBE(0, 5) % 10_000_000_000}`)];
    const { code } = (await postOk(agent, `${server.url}/api/lobbies/`, { format: '6v6', name: 'bench' }, host.cookie)) as { code: string };
    const measure = async (): Promise<string> => {
      const latencies: number[] = [];
      for (let i = 0; i < COMMANDS; i++) {
        const started = performance.now();
        const answer = await httpRequest(agent, 'POST', `${server.url}/api/lobbies/${code}/${i % 2 === 0 ? 'join' : 'leave'}`, { body: {}, cookie: guest.cookie });
        latencies.push(performance.now() - started);
        if (answer.status !== 200) throw new Error(`lobby command answered ${answer.status}: ${answer.text}`);
      }
      latencies.sort((a, b) => a - b);
      return `p50 ${percentile(latencies, 0.5).toFixed(2)} ms, p99 ${percentile(latencies, 0.99).toFixed(2)} ms`;
    };
    await measure(); // warm-up
    await disableAll(world);
    lines.push(`  lobby join/leave, ${COMMANDS} one at a time, empty outbox: ${await measure()}`);

    const paused = await webhook(world, ['tournament.match_ready']);
    await world.db.em().execute(`update notification_webhooks set not_before = now() + interval '1 hour' where id = ?`, [paused.id]);
    await enqueue(world, QUEUED);
    lines.push(`  same, ${await world.deliveries.backlog()} deliveries queued (webhook waiting out a 429): ${await measure()}`);

    await world.db.em().execute(`update notification_webhooks set not_before = null where id = ?`, [paused.id]);
    const sentBefore = fake.received.length;
    const during = await measure();
    lines.push(`  same, while the worker sends the ${QUEUED} queued (${fake.received.length - sentBefore} sent during the run): ${during}`);
    await drained(world);

    const window = [...(await windowOf(server))].sort((a, b) => a - b);
    if (window.length > 0) {
      lines.push(`  duplicate window (2xx arrived -> "sent" committed), ${window.length} sends: p50 ${percentile(window, 0.5).toFixed(2)} ms, p99 ${percentile(window, 0.99).toFixed(2)} ms`);
    }
  } finally {
    await server.close();
    await fake.close();
  }
  return lines;
}

/** The running worker's measured windows (DeliveryWorker.window). */
async function windowOf(server: Awaited<ReturnType<typeof startTestServerWithLogin>>): Promise<number[]> {
  return server.server.notifications.worker.window;
}
