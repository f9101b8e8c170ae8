import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ClientLogRepository, type ClientLogRow } from '../../src/db/client-log-repository';
import type { LiveStore } from '../../src/live/live-store';
import { MemoryLiveStore } from '../../src/live/memory-live-store';
import { connectRedisLiveStore } from '../../src/live/redis-live-store';
import { ClientLogRetention } from '../../src/observability/client-log-retention';
import { deleteKeysWithPrefix } from '../support/redis-prefix';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-11-25T06:00:00Z');

const row = (message: string, receivedAt: number): ClientLogRow => ({
  level: 'info', source: 'web', message, context: null, at: new Date(receivedAt), receivedAt: new Date(receivedAt), userId: null, addressHash: 'a'.repeat(64), userAgent: null,
});

describe('client log retention', () => {
  let t: TestDatabase;
  let repository: ClientLogRepository;
  const prefix = `tr${randomBytes(4).toString('hex')}:`;
  let stores: LiveStore[] = [];

  const liveStore = async (): Promise<LiveStore> => {
    const store = process.env.REDIS_URL ? await connectRedisLiveStore({ url: process.env.REDIS_URL, prefix }) : new MemoryLiveStore();
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    t = await createTestDatabase();
    repository = new ClientLogRepository(t.db);
  });
  beforeEach(async () => {
    await t.db.em().execute('delete from client_logs', [], 'run');
    for (const store of stores) await store.close();
    stores = [];
    if (process.env.REDIS_URL) await deleteKeysWithPrefix(process.env.REDIS_URL, prefix);
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    if (process.env.REDIS_URL) await deleteKeysWithPrefix(process.env.REDIS_URL, prefix);
    await t?.drop();
  });

  const messages = async () => (await repository.list({ page: 1, limit: 100 })).entries.map((e) => e.message).sort();

  it('a sweep deletes every entry received before the retention, in batches, and keeps the rest', async () => {
    await repository.insertMany([1, 2, 3, 4, 5].map((i) => row(`old ${i}`, NOW - 15 * DAY - i * 1000)));
    await repository.insertMany([row('young', NOW - 13 * DAY), row('new', NOW - 1000)]);
    const batches: number[] = [];
    const counted = { deleteReceivedBefore: async (cutoff: Date, size: number) => {
      const deleted = await repository.deleteReceivedBefore(cutoff, size);
      batches.push(deleted);
      return deleted;
    } };
    const retention = new ClientLogRetention({ repository: counted, live: await liveStore(), clock: () => NOW, retentionDays: 14, batchSize: 2 });
    expect(await retention.sweep()).toEqual({ ran: true, deleted: 5 });
    expect(batches).toEqual([2, 2, 1]);
    expect(await messages()).toEqual(['new', 'young']);
  });

  it('two instances sweeping at once: one sweeps, the other finds the period taken', async () => {
    await repository.insertMany([row('old', NOW - 20 * DAY)]);
    // Two connections to one Redis; without Redis the in-process store serves one instance only, so both share it.
    const a = await liveStore();
    const b = process.env.REDIS_URL ? await liveStore() : a;
    const sweeps = await Promise.all(
      [a, b].map((live) => new ClientLogRetention({ repository, live, clock: () => NOW, retentionDays: 14 }).sweep()),
    );
    expect(sweeps.map((s) => s.ran).sort()).toEqual([false, true]);
    expect(sweeps.reduce((sum, s) => sum + s.deleted, 0)).toBe(1);
  });

  it('the next period sweeps again', async () => {
    const live = await liveStore();
    let now = NOW;
    const retention = new ClientLogRetention({ repository, live, clock: () => now, retentionDays: 14, everyMs: 60_000 });
    expect((await retention.sweep()).ran).toBe(true);
    expect((await retention.sweep()).ran).toBe(false);
    now += 60_001;
    expect((await retention.sweep()).ran).toBe(true);
  });
});
