import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryRepository } from '../../src/db/delivery-repository';
import { LobbyRecordRepository } from '../../src/db/lobby-record-repository';
import { notificationOutbox } from '../../src/db/notification-outbox';
import { WebhookRepository } from '../../src/db/webhook-repository';
import type { NotificationEvent } from '../../src/domain/notifications/notification-event';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

let t: TestDatabase;
let webhooks: WebhookRepository;
let deliveries: DeliveryRepository;
beforeAll(async () => {
  t = await createTestDatabase();
  webhooks = new WebhookRepository(t.db);
  deliveries = new DeliveryRepository(t.db);
});
afterAll(() => t?.drop());

const NOW = Date.parse('2026-01-01T00:00:00Z');
let hookCount = 0;
async function webhook(events: NotificationEvent['type'][]): Promise<number> {
  hookCount += 1;
  const row = await t.db.em().transactional((em) =>
    webhooks.createIn(em, { name: `h${hookCount}`, urlCipher: 'v1.x', urlHash: String(hookCount), urlHost: 'discord.com', urlTail: 'abcd', events }, new Date(NOW)),
  );
  return row.id;
}
const announcement = (id: number): NotificationEvent => ({
  type: 'announcement.published', key: `announcement.published:test-${id}`, payload: { id, title: `t${id}`, body: '', level: 'info', starts_at: new Date(NOW).toISOString() },
});

describe('the outbox', () => {
  it('keeps one event per key and fans it out to the subscribed, enabled webhooks only', async () => {
    const subscribed = await webhook(['announcement.published']);
    await webhook(['lobby.live']);
    expect(await t.db.em().transactional((em) => notificationOutbox.enqueueIn(em, [announcement(1)]))).toBeGreaterThanOrEqual(1);
    expect(await t.db.em().transactional((em) => notificationOutbox.enqueueIn(em, [announcement(1)]))).toBe(0);
    const page = await deliveries.page({ webhookId: subscribed, page: 1, limit: 10 });
    expect(page.rows.map((r) => r.event_type)).toEqual(['announcement.published']);
  });

  it('writes nothing when the transaction that caused the event rolls back', async () => {
    const hook = await webhook(['announcement.published']);
    await expect(
      t.db.em().transactional(async (em) => {
        await notificationOutbox.enqueueIn(em, [announcement(2)]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect((await deliveries.page({ webhookId: hook, page: 1, limit: 10 })).total).toBe(0);
  });

  it('adds a lobby event only with the record write that stored it, not with an older version that was skipped', async () => {
    const hook = await webhook(['lobby.live']);
    const records = new LobbyRecordRepository(t.db, (docs) =>
      docs.map((doc) => ({ type: 'lobby.live', key: `lobby.live:${doc.code}:v${doc.version}`, scope: doc.code, payload: {} as never })),
    );
    expect(await records.save({ code: 'OUT1', phase: 'live', hostId: 1, version: 5, snapshot: {} })).toBe(true);
    expect((await deliveries.page({ webhookId: hook, page: 1, limit: 10 })).total).toBe(1);
    expect(await records.save({ code: 'OUT1', phase: 'live', hostId: 1, version: 4, snapshot: {} })).toBe(false);
    expect((await deliveries.page({ webhookId: hook, page: 1, limit: 10 })).total).toBe(1);
  });

  /** A repository whose every record stands for one event, keyed by the lobby alone, as `lobby.created` is. */
  const onePerLobby = () =>
    new LobbyRecordRepository(t.db, (docs) => docs.map((doc) => ({ type: 'lobby.live', key: `lobby.live:${doc.code}`, scope: doc.code, payload: {} as never })));
  const eventsKeyed = async (key: string) => Number((await t.db.em().execute<Array<{ n: string }>>('select count(*) as n from notification_events where dedupe_key = ?', [key]))[0].n);
  /** As a retention sweep would: the event and its deliveries gone. */
  const prune = (key: string) =>
    t.db.em().execute('with gone as (delete from notification_events where dedupe_key = ? returning id) delete from notification_deliveries where event_id in (select id from gone)', [key]);

  it('does not send again an event a record it stored already put in the outbox', async () => {
    const records = onePerLobby();
    await records.save({ code: 'OUT2', phase: 'live', hostId: 1, version: 1, snapshot: {} });
    expect(await eventsKeyed('lobby.live:OUT2')).toBe(1);
    await prune('lobby.live:OUT2');

    expect(await records.save({ code: 'OUT2', phase: 'live', hostId: 1, version: 2, snapshot: {} })).toBe(true);

    expect(await eventsKeyed('lobby.live:OUT2')).toBe(0);
  });

  it('still sends an event whose record it did not store, with the write that stores it', async () => {
    await onePerLobby().save({ code: 'OUT3', phase: 'live', hostId: 1, version: 5, snapshot: {} });
    await prune('lobby.live:OUT3');
    const other = onePerLobby();
    expect(await other.save({ code: 'OUT3', phase: 'live', hostId: 1, version: 4, snapshot: {} })).toBe(false);

    expect(await other.save({ code: 'OUT3', phase: 'live', hostId: 1, version: 6, snapshot: {} })).toBe(true);

    expect(await eventsKeyed('lobby.live:OUT3')).toBe(1);
  });
});

describe('the delivery lease', () => {
  it('gives each due webhook to one of two instances claiming at the same moment', async () => {
    const hooks = [await webhook(['tournament.started']), await webhook(['tournament.started']), await webhook(['tournament.started'])];
    await t.db.em().transactional((em) =>
      notificationOutbox.enqueueIn(em, [{ type: 'tournament.started', key: 'tournament.started:lease', payload: { tournament_id: 1, name: 'Cup' } }]),
    );
    // Deliveries are due from the database's now(): these claims come a moment after it.
    const now = Date.now() + 1_000;
    const [a, b] = await Promise.all([deliveries.claim('a', now, 10_000, 100), deliveries.claim('b', now, 10_000, 100)]);
    const mine = (claimed: { id: number }[]) => claimed.map((c) => c.id).filter((id) => hooks.includes(id));
    expect([...mine(a), ...mine(b)].sort()).toEqual([...hooks].sort());
    // Held: nobody else gets them until the lease runs out or is released.
    expect(mine(await deliveries.claim('c', now + 5_000, 10_000, 100))).toEqual([]);
    expect(mine(await deliveries.claim('c', now + 10_001, 10_000, 100)).sort()).toEqual([...hooks].sort());
  });

  it('counts the backlog of enabled webhooks only', async () => {
    const before = await deliveries.backlog();
    const hook = await webhook(['tournament.completed']);
    await t.db.em().transactional((em) =>
      notificationOutbox.enqueueIn(em, [{ type: 'tournament.completed', key: 'tournament.completed:backlog', payload: { tournament_id: 1, name: 'Cup' } }]),
    );
    expect(await deliveries.backlog()).toBe(before + 1);
    await deliveries.disableWebhook(hook, 'test', null, NOW);
    expect(await deliveries.backlog()).toBe(before);
  });
});
