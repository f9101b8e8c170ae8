import { createClient } from 'redis';
import { ChannelHandlers, logHandlerError } from './channel-handlers';
import type { CasResult, CasWrite, LiveStore, Publication, Unsubscribe, VersionedDoc, WindowHit } from './live-store';
import { checkCasWrites, checkPositiveInteger, checkScore, encodeValue, ttlMilliseconds } from './live-store-input';
import { CLAIM_DUE, COMPARE_AND_SET, HIT_WINDOW, PUSH_CAPPED, READ_DOCS, type RedisClient, runScript } from './redis-scripts';

/**
 * The production live store: shared by every server instance through one Redis. Every key and
 * channel is prefixed, so several deployments (or test runs) can share one server. The key
 * `<prefix>~hit-window-sequence` is the store's own.
 */
export interface RedisLiveStoreOptions {
  url: string;
  /** Default 'league:'. */
  prefix?: string;
  /** How long the start (connect, handshake, PING) and a graceful close may take. Default 3000. */
  connectTimeoutMs?: number;
  /** Connection errors after start (Redis restarting, network loss) while the client reconnects. */
  onError?: (error: unknown) => void;
  onHandlerError?: (error: unknown, channel: string) => void;
}

interface Upstream {
  listener: (message: string) => void;
  subscribed: Promise<void>;
}

const HIT_SEQUENCE_KEY = '~hit-window-sequence';

/** Connects both connections (commands, subscriptions); rejects at once when Redis is unreachable. */
export async function connectRedisLiveStore(options: RedisLiveStoreOptions): Promise<RedisLiveStore> {
  const store = new RedisLiveStore(options);
  await store.connect();
  return store;
}

export class RedisLiveStore implements LiveStore {
  readonly kind = 'redis' as const;
  readonly #prefix: string;
  readonly #url: string;
  readonly #connectTimeoutMs: number;
  readonly #client: RedisClient;
  /** A connection in subscriber mode can run no other command, hence a second one. */
  readonly #subscriber: RedisClient;
  readonly #handlers: ChannelHandlers;
  readonly #upstream = new Map<string, Upstream>();
  #closed = false;

  constructor(options: RedisLiveStoreOptions) {
    this.#prefix = options.prefix ?? 'league:';
    this.#url = options.url;
    const connectTimeoutMs = (this.#connectTimeoutMs = options.connectTimeoutMs ?? 3000);
    const onError = options.onError ?? ((error: unknown) => console.error('live store: redis connection error', error));
    this.#client = connection((socket) => createClient({ url: options.url, socket }), connectTimeoutMs, onError);
    this.#subscriber = connection((socket) => this.#client.duplicate({ socket }), connectTimeoutMs, onError);
    this.#handlers = new ChannelHandlers(options.onHandlerError ?? logHandlerError);
  }

  async connect(): Promise<void> {
    try {
      // The handshake and the PING can wait forever on a socket that opened onto something that
      // is not Redis (another service, a proxy), so the whole start shares one deadline.
      await withTimeout(this.#open(), this.#connectTimeoutMs, `no Redis answer within ${this.#connectTimeoutMs} ms`);
    } catch (error) {
      this.#destroy();
      const reason = error instanceof Error ? error.message || error.name : String(error);
      throw new Error(`Cannot connect to Redis at ${redacted(this.#url)}: ${reason}`, { cause: error });
    }
  }

  async #open(): Promise<void> {
    // Both attempts settle, so an error names the first failure rather than a knock-on one.
    const attempts = await Promise.allSettled([this.#client.connect(), this.#subscriber.connect()]);
    const failed = attempts.find((attempt): attempt is PromiseRejectedResult => attempt.status === 'rejected');
    if (failed) throw failed.reason;
    await Promise.all([this.#client.ping(), this.#subscriber.ping()]);
  }

  async get<T = unknown>(key: string): Promise<VersionedDoc<T> | null> {
    return (await this.getMany<T>([key]))[0];
  }

  async getMany<T = unknown>(keys: string[]): Promise<Array<VersionedDoc<T> | null>> {
    if (keys.length === 0) return [];
    const flat = (await runScript(this.#client, READ_DOCS, keys.map((key) => this.#key(key)), [])) as Array<string | null>;
    return keys.map((_, i) => {
      const version = flat[i * 2];
      const json = flat[i * 2 + 1];
      return version == null || json == null ? null : { version: Number(version), value: JSON.parse(json) as T };
    });
  }

  async compareAndSet(writes: CasWrite[], publish?: Publication): Promise<CasResult> {
    checkCasWrites(writes);
    if (writes.length === 0 && !publish) return { ok: true, versions: [] };
    const args = writes.flatMap((write) => [
      String(write.expectedVersion),
      write.value === null ? 'd' : 's',
      write.value === null ? '' : encodeValue(write.value, 'compareAndSet'),
      write.ttlMs === undefined ? '' : String(ttlMilliseconds(write.ttlMs, 'compareAndSet')),
    ]);
    const keys = writes.map((write) => this.#key(write.key));
    const [ok, ...rest] = (await runScript(this.#client, COMPARE_AND_SET, keys, [...args, ...this.#publishArgs(publish)])) as number[];
    return ok === 1 ? { ok: true, versions: rest } : { ok: false, conflictKey: writes[rest[0] - 1].key };
  }

  async delete(key: string): Promise<void> {
    await this.#client.del(this.#key(key));
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    return (await this.#client.pExpire(this.#key(key), ttlMilliseconds(ttlMs, 'expire'))) === 1;
  }

  async increment(key: string): Promise<number> {
    return this.#client.incr(this.#key(key));
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.#client.publish(this.#key(channel), message);
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<Unsubscribe> {
    if (this.#closed) throw new Error('live store is closed');
    const { token, first } = this.#handlers.add(channel, handler);
    if (first) {
      const listener = (message: string) => this.#handlers.deliver(channel, this.#handlers.snapshot(channel), message);
      this.#upstream.set(channel, { listener, subscribed: this.#subscriber.subscribe(this.#key(channel), listener) });
    }
    const unsubscribe = async () => {
      if (!this.#handlers.remove(channel, token)) return;
      const upstream = this.#upstream.get(channel);
      this.#upstream.delete(channel);
      if (upstream && this.#subscriber.isOpen) await this.#subscriber.unsubscribe(this.#key(channel), upstream.listener);
    };
    try {
      // Later subscribers wait for the first one's SUBSCRIBE too: delivery is promised once this resolves.
      await this.#upstream.get(channel)?.subscribed;
    } catch (error) {
      await unsubscribe().catch(() => undefined);
      throw error;
    }
    return unsubscribe;
  }

  async scoreSet(key: string, member: string, score: number): Promise<void> {
    checkScore(score, 'score', 'scoreSet');
    await this.#client.zAdd(this.#key(key), { score, value: member });
  }

  async scoreRange(key: string, min: number, max: number): Promise<string[]> {
    checkScore(min, 'min', 'scoreRange');
    checkScore(max, 'max', 'scoreRange');
    return this.#client.zRangeByScore(this.#key(key), redisScore(min), redisScore(max));
  }

  async scoreRemoveBelow(key: string, score: number): Promise<void> {
    checkScore(score, 'score', 'scoreRemoveBelow');
    await this.#client.zRemRangeByScore(this.#key(key), '-inf', `(${redisScore(score)}`);
  }

  async schedule(queue: string, member: string, dueAt: number): Promise<void> {
    checkScore(dueAt, 'dueAt', 'schedule');
    await this.#client.zAdd(this.#key(queue), { score: dueAt, value: member });
  }

  async unschedule(queue: string, member: string): Promise<void> {
    await this.#client.zRem(this.#key(queue), member);
  }

  async claimDue(queue: string, now: number, limit: number): Promise<string[]> {
    checkScore(now, 'now', 'claimDue');
    if (limit === 0) return [];
    checkPositiveInteger(limit, 'limit', 'claimDue');
    return (await runScript(this.#client, CLAIM_DUE, [this.#key(queue)], [redisScore(now), String(limit)])) as string[];
  }

  async hitWindow(key: string, now: number, windowMs: number, limit: number): Promise<WindowHit> {
    checkScore(now, 'now', 'hitWindow');
    const window = ttlMilliseconds(windowMs, 'hitWindow');
    checkPositiveInteger(limit, 'limit', 'hitWindow');
    const keys = [this.#key(key), this.#key(HIT_SEQUENCE_KEY)];
    const [allowed, count, retryAfterMs] = (await runScript(this.#client, HIT_WINDOW, keys, [String(now), String(window), String(limit)])) as number[];
    return { allowed: allowed === 1, count, retryAfterMs };
  }

  async listPush(key: string, value: unknown, maxLength: number, publish?: Publication): Promise<void> {
    checkPositiveInteger(maxLength, 'maxLength', 'listPush');
    const args = [encodeValue(value, 'listPush'), String(maxLength), ...this.#publishArgs(publish)];
    await runScript(this.#client, PUSH_CAPPED, [this.#key(key)], args);
  }

  async listRange<T = unknown>(key: string): Promise<T[]> {
    return (await this.#client.lRange(this.#key(key), 0, -1)).map((json) => JSON.parse(json) as T);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#handlers.clear();
    this.#upstream.clear();
    // close() lets commands already sent finish. With Redis gone they never would: after the
    // deadline destroy() rejects them (its own ClientClosedError, once closing began, is expected).
    const clients = [this.#client, this.#subscriber].filter((client) => client.isOpen);
    await withTimeout(Promise.all(clients.map((client) => client.close())), this.#connectTimeoutMs, 'close timed out').catch(() => {
      for (const client of clients) {
        try {
          client.destroy();
        } catch {
          // already closing: the queue was flushed before the socket refused
        }
      }
    });
  }

  /** Drops both connections without waiting for queued commands, which may never be answered. */
  #destroy(): void {
    this.#closed = true;
    this.#handlers.clear();
    this.#upstream.clear();
    for (const client of [this.#client, this.#subscriber]) if (client.isOpen) client.destroy();
  }

  #key(key: string): string {
    return this.#prefix + key;
  }

  /** The trailing script arguments of a publication: the prefixed channel, then the messages. */
  #publishArgs(publish: Publication | undefined): string[] {
    return publish ? [this.#key(publish.channel), ...publish.messages] : [];
  }
}

interface SocketOptions {
  connectTimeout: number;
  reconnectStrategy: (retries: number) => number | false;
}

/**
 * At start an unreachable Redis is a configuration error to report now, not to wait out; once
 * connected, a lost connection is retried with backoff (commands wait in the offline queue).
 */
function connection(
  make: (socket: SocketOptions) => RedisClient,
  connectTimeoutMs: number,
  onError: (error: unknown) => void,
): RedisClient {
  let wasReady = false;
  const client = make({
    connectTimeout: connectTimeoutMs,
    reconnectStrategy: (retries) => (wasReady ? Math.min(2 ** retries * 50, 2000) : false),
  });
  client.on('ready', () => {
    wasReady = true;
  });
  // Without a listener an 'error' event would crash the process; before the first connection the
  // failure already rejects connect(), so only later ones are reported.
  client.on('error', (error: unknown) => {
    if (wasReady) onError(error);
  });
  return client;
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function redisScore(score: number): string {
  return score === Infinity ? '+inf' : score === -Infinity ? '-inf' : String(score);
}

function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}
