import { randomUUID } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedisLiveStore } from '../../src/live/redis-live-store';
import { describeLiveStoreContract } from './live-store.contract';
import { deleteKeysWithPrefix } from '../support/redis-prefix';

/**
 * Runs the contract against a real Redis: REDIS_URL when set, otherwise a local one if it answers.
 * Where Redis is required (CI, or REDIS_URL given) an unreachable one fails the run instead of
 * skipping it silently.
 */
const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const required = Boolean(process.env.CI) || process.env.REDIS_URL !== undefined;
const runPrefix = `test:live-store:${randomUUID()}:`;

async function unreachableReason(): Promise<string | undefined> {
  try {
    const probe = await connectRedisLiveStore({ url, prefix: runPrefix, connectTimeoutMs: 1_000 });
    await probe.close();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const unreachable = await unreachableReason();
if (unreachable && !required) console.warn(`Skipping the Redis live store contract (set REDIS_URL or CI to require it): ${unreachable}`);

describe.runIf(unreachable && required)('RedisLiveStore (required)', () => {
  it('reaches Redis', () => {
    expect.fail(`Redis is required here (${process.env.CI ? 'CI is set' : 'REDIS_URL is set'}) but unreachable: ${unreachable}`);
  });
});

describe.skipIf(unreachable)('RedisLiveStore', () => {
  let storeCount = 0;

  afterAll(async () => {
    await deleteKeysWithPrefix(url, runPrefix);
  });

  describeLiveStoreContract(
    'contract',
    async () => {
      // A prefix per test, so tests reuse key names without seeing each other's data.
      const prefix = `${runPrefix}${++storeCount}:`;
      const open = () => connectRedisLiveStore({ url, prefix });
      return { store: await open(), openPeer: open };
    },
    { sharedAcrossInstances: true },
  );

  it('shares one Redis subscription per channel between handlers and drops it after the last one', async () => {
    const store = await connectRedisLiveStore({ url, prefix: `${runPrefix}numsub:` });
    const observer = createClient({ url });
    await observer.connect();
    const subscribers = async () => (await observer.pubSubNumSub(`${runPrefix}numsub:chan`))[`${runPrefix}numsub:chan`];
    try {
      const first = await store.subscribe('chan', () => undefined);
      const second = await store.subscribe('chan', () => undefined);
      expect(await subscribers()).toBe(1);
      await first();
      expect(await subscribers()).toBe(1);
      await second();
      expect(await subscribers()).toBe(0);
    } finally {
      await Promise.all([store.close(), observer.close()]);
    }
  });

  it('closes within the timeout once Redis has gone away, failing the commands still waiting', async () => {
    const target = new URL(url);
    const links = new Set<Socket>();
    const proxy = createServer((socket) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const end of [socket, upstream]) links.add(end.on('error', () => undefined));
      socket.pipe(upstream).pipe(socket);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.address() as { port: number };
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(port);
    const store = await connectRedisLiveStore({
      url: proxied.toString(),
      prefix: `${runPrefix}gone:`,
      connectTimeoutMs: 300,
      onError: () => undefined,
    });
    const proxyClosed = new Promise((resolve) => proxy.close(resolve));
    for (const link of links) link.destroy();
    await proxyClosed;
    const waiting = store.get('doc');
    const started = Date.now();
    await store.close();
    expect(Date.now() - started).toBeLessThan(1_500);
    await expect(waiting).rejects.toThrow();
  });

  it('keeps stores with different prefixes apart', async () => {
    const [a, b] = await Promise.all([
      connectRedisLiveStore({ url, prefix: `${runPrefix}isolated-a:` }),
      connectRedisLiveStore({ url, prefix: `${runPrefix}isolated-b:` }),
    ]);
    try {
      await a.compareAndSet([{ key: 'doc', expectedVersion: 0, value: 'a' }]);
      expect(await b.get('doc')).toBeNull();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('connectRedisLiveStore', () => {
  it('rejects at once, naming the address, when nothing listens there', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const started = Date.now();
    await expect(connectRedisLiveStore({ url: `redis://127.0.0.1:${closedPort}` })).rejects.toThrow(
      `Cannot connect to Redis at redis://127.0.0.1:${closedPort}`,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('rejects within the connect timeout when the server there does not answer like Redis', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket.on('error', () => undefined));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const started = Date.now();
      await expect(connectRedisLiveStore({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 300, onError: () => undefined })).rejects.toThrow(
        /Cannot connect to Redis at .*no Redis answer within 300 ms/,
      );
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
