import {
  ClientClosedError, ClientOfflineError, ConnectionTimeoutError, createClient, ErrorReply, ReconnectStrategyError, SocketClosedUnexpectedlyError,
  SocketTimeoutError, TimeoutError,
} from 'redis';
import { ChannelHandlers, logHandlerError } from './channel-handlers';
import {
  DEFAULT_LEASE_MS, type CasResult, type CasWrite, type Commit, type CommitResult, type DueEntry, type LiveStore, type NumberedPush,
  type NumberedPushResult, type Publication, type Unsubscribe, type VersionedDoc, type WindowCheck, type WindowHit,
} from './live-store';
import { checkCommit, checkPositiveInteger, checkScore, checkNumberedPush, checkWindowCheck, encodeParts, encodeValue, ttlMilliseconds } from './live-store-input';
import { LiveStoreUnavailable } from './live-store-unavailable';
import { CallDeadlines } from '../clock/call-deadlines';
import { CALL, CLAIM_DUE, COMMIT, COMPLETE_DUE, HIT_WINDOW, PUSH_NUMBERED, READ_DOCS, READ_VERSIONS, type RedisClient, runScript } from './redis-scripts';
import { machineTime } from '../clock/machine-time';

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
  /**
   * How long one call may wait for Redis before it fails with LiveStoreUnavailable. Default 1000.
   * A write that fails so is fenced: it is refused if it reaches Redis later.
   */
  commandTimeoutMs?: number;
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
  readonly #commandTimeoutMs: number;
  /** Every call's command timeout (see #call). */
  readonly #deadlines: CallDeadlines;
  /** Redis's clock minus ours (ms), measured on every (re)connection; the deadline fence is in Redis's clock. */
  #clockOffsetMs = 0;
  /**
   * Set while Redis does not answer: calls fail at once instead of each waiting out its timeout
   * (and piling up in a paused server's buffer); a probe clears it when a PING answers again.
   */
  #unavailableSince: number | null = null;
  #probe: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: RedisLiveStoreOptions) {
    this.#prefix = options.prefix ?? 'league:';
    this.#url = options.url;
    const connectTimeoutMs = (this.#connectTimeoutMs = options.connectTimeoutMs ?? 3000);
    this.#commandTimeoutMs = options.commandTimeoutMs ?? 1000;
    this.#deadlines = new CallDeadlines(this.#commandTimeoutMs, () => {
      this.#markUnavailable();
      return new LiveStoreUnavailable(`no Redis answer within ${this.#commandTimeoutMs} ms`);
    });
    const onError = options.onError ?? ((error: unknown) => console.error('live store: redis connection error', error));
    // No offline queue: a command while reconnecting fails at once (503) instead of being sent late.
    this.#client = connection((socket) => createClient({ url: options.url, socket, disableOfflineQueue: true }), connectTimeoutMs, onError);
    // Redis drops a subscriber whose unread messages pass its output-buffer limit, as it drops any
    // connection on a restart: what was published until node-redis had subscribed again is lost.
    // node-redis emits 'ready' once its SUBSCRIBEs are answered, so a 'ready' after the first is
    // that moment, and every subscription hears of the loss then.
    this.#subscriber = connection((socket) => this.#client.duplicate({ socket, disableOfflineQueue: true }), connectTimeoutMs, onError, () =>
      this.#handlers.interrupted(),
    );
    this.#handlers = new ChannelHandlers(options.onHandlerError ?? logHandlerError);
    this.#client.on('ready', () => void this.#measureClock().catch(() => undefined));
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
    await this.#measureClock();
  }

  async #measureClock(): Promise<void> {
    const before = machineTime.wall();
    const [seconds, micros] = await this.#client.time();
    const after = machineTime.wall();
    this.#clockOffsetMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - Math.round((before + after) / 2);
  }

  /**
   * Every call goes through here: it fails at once while Redis is known to be unreachable, and
   * otherwise after the command timeout; connection errors become LiveStoreUnavailable. A call
   * whose wait overran because this process's own loop was blocked (see firedLate) is not taken
   * for Redis's silence: its answer is read first, and a write Redis refused for arriving after
   * its fence (nothing applied) is sent once more with a fresh deadline (`again`: not yet sent twice).
   */
  async #call<T>(run: (deadline: number) => Promise<T>, again = true): Promise<T> {
    if (this.#closed) throw new LiveStoreUnavailable('the live store is closed');
    if (this.#unavailableSince !== null) throw new LiveStoreUnavailable();
    const deadline = machineTime.wall() + this.#clockOffsetMs + this.#commandTimeoutMs - FENCE_MARGIN_MS;
    const call = this.#deadlines.start();
    try {
      return await this.#deadlines.bound(call, run(deadline));
    } catch (error) {
      if (error instanceof LiveStoreUnavailable) throw error;
      if (call.stalled && isFenceRefusal(error)) {
        if (again) return this.#call(run, false);
        throw new LiveStoreUnavailable(undefined, { cause: error });
      }
      if (isUnreachable(error)) {
        this.#markUnavailable();
        throw new LiveStoreUnavailable(undefined, { cause: error });
      }
      throw error;
    } finally {
      this.#deadlines.end(call);
    }
  }

  #markUnavailable(): void {
    if (this.#unavailableSince !== null || this.#closed) return;
    this.#unavailableSince = machineTime.elapsed();
    const probe = () => {
      this.#probe = undefined;
      if (this.#closed) return;
      const ping = this.#client.isReady ? this.#client.ping() : Promise.reject(new Error('offline'));
      ping.catch(() => undefined);
      withTimeout(ping, this.#commandTimeoutMs, 'probe timed out').then(
        () => {
          this.#unavailableSince = null;
        },
        () => {
          this.#probe = setTimeout(probe, PROBE_EVERY_MS).unref();
        },
      );
    };
    this.#probe = setTimeout(probe, PROBE_EVERY_MS).unref();
  }

  async get<T = unknown>(key: string): Promise<VersionedDoc<T> | null> {
    return (await this.getMany<T>([key]))[0];
  }

  async getMany<T = unknown>(keys: string[]): Promise<Array<VersionedDoc<T> | null>> {
    if (keys.length === 0) return [];
    const prefixed = keys.map((key) => this.#key(key));
    const hashes = (await this.#call(() => runScript(this.#client, READ_DOCS, prefixed, []))) as string[][];
    return hashes.map((hash) => decodeDoc<T>(hash));
  }

  async versions(keys: string[]): Promise<number[]> {
    if (keys.length === 0) return [];
    return (await this.#call(() => runScript(this.#client, READ_VERSIONS, keys.map((key) => this.#key(key)), []))) as number[];
  }

  async getParts<T extends object = Record<string, unknown>>(key: string, parts: readonly (keyof T & string)[]): Promise<VersionedDoc<Partial<T>> | null> {
    const fields = ['v', 'd', ...parts.map((part) => `p:${part}`)];
    const [version, whole, ...values] = await this.#call(() => this.#client.hmGet(this.#key(key), fields));
    if (version === null) return null;
    const value: Record<string, unknown> = {};
    // A document stored as one piece answers from its whole JSON.
    const source = whole === null ? null : (JSON.parse(whole) as Record<string, unknown>);
    parts.forEach((part, i) => {
      if (source) {
        if (Object.hasOwn(source, part)) value[part] = source[part];
      } else if (values[i] !== null) value[part] = JSON.parse(values[i]!);
    });
    return { version: Number(version), value: value as Partial<T> };
  }

  async compareAndSet(writes: CasWrite[], publish?: Publication, schedule?: DueEntry): Promise<CasResult> {
    if (writes.length === 0 && !publish && !schedule) {
      checkCommit({ writes });
      return { ok: true, versions: [] };
    }
    const result = await this.commit({ writes, publish, schedule });
    return 'current' in result ? { ok: false, conflictKey: result.conflictKey } : (result as CasResult);
  }

  async commit(commit: Commit): Promise<CommitResult> {
    checkCommit(commit);
    const { writes, guards = [], hits = [], publish, schedule } = commit;
    const keys = this.#hitKeys(hits);
    const checked = [...guards, ...writes];
    for (const entry of checked) keys.push(this.#key(entry.key));
    if (schedule) keys.push(this.#key(schedule.queue));
    const args = [String(hits.length), String(guards.length), String(writes.length), schedule?.member ?? '', schedule ? String(schedule.dueAt) : ''];
    pushHitArgs(args, hits, 'commit');
    for (const guard of guards) args.push(String(guard.expectedVersion));
    for (const write of writes) {
      const ttl = write.ttlMs === undefined ? '' : String(ttlMilliseconds(write.ttlMs, 'compareAndSet'));
      if (write.value === null) args.push(String(write.expectedVersion), 'd', ttl, '0');
      else if (write.parts === undefined) args.push(String(write.expectedVersion), 's', ttl, '1', encodeValue(write.value, 'compareAndSet'));
      else {
        const parts = encodeParts(write);
        args.push(String(write.expectedVersion), write.parts === 'all' ? 'p' : 'u', ttl, String(parts.length * 2));
        for (const [field, json] of parts) args.push(field, json);
      }
    }
    this.#pushPublishArgs(args, publish);
    const [status, ...rest] = (await this.#call((deadline) => runScript(this.#client, COMMIT, keys, args, deadline))) as unknown[];
    if (status === 1) return { ok: true, versions: rest as number[] };
    if (status === 2) return { ok: false, refused: (rest[0] as number[][]).map(windowHit) };
    const [index, hashes] = rest as [number, string[][]];
    return { ok: false, conflictKey: checked[index - 1].key, current: new Map(checked.map((entry, i) => [entry.key, decodeDoc(hashes[i])])) };
  }

  async delete(key: string): Promise<void> {
    await this.#fenced('DEL', key, []);
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    return (await this.#fenced('PEXPIRE', key, [String(ttlMilliseconds(ttlMs, 'expire'))])) === 1;
  }

  async increment(key: string): Promise<number> {
    return Number(await this.#fenced('INCR', key, []));
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.#fenced('PUBLISH', channel, [message]);
  }

  async subscribe(channel: string, handler: (message: string) => void, interrupted?: () => void): Promise<Unsubscribe> {
    if (this.#closed) throw new Error('live store is closed');
    if (this.#unavailableSince !== null || !this.#subscriber.isReady) throw new LiveStoreUnavailable();
    const { token, first } = this.#handlers.add(channel, handler, interrupted);
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
      const subscribed = this.#upstream.get(channel)?.subscribed;
      if (subscribed) await this.#call(() => subscribed);
    } catch (error) {
      await unsubscribe().catch(() => undefined);
      throw error;
    }
    return unsubscribe;
  }

  async scoreSet(key: string, member: string, score: number): Promise<void> {
    checkScore(score, 'score', 'scoreSet');
    await this.#fenced('ZADD', key, [String(score), member]);
  }

  async scoreRange(key: string, min: number, max: number): Promise<string[]> {
    checkScore(min, 'min', 'scoreRange');
    checkScore(max, 'max', 'scoreRange');
    return this.#call(() => this.#client.zRangeByScore(this.#key(key), redisScore(min), redisScore(max)));
  }

  async scoreRemoveBelow(key: string, score: number): Promise<void> {
    checkScore(score, 'score', 'scoreRemoveBelow');
    await this.#fenced('ZREMRANGEBYSCORE', key, ['-inf', `(${redisScore(score)}`]);
  }

  async schedule(queue: string, member: string, dueAt: number): Promise<void> {
    checkScore(dueAt, 'dueAt', 'schedule');
    await this.#fenced('ZADD', queue, [String(dueAt), member]);
  }

  async unschedule(queue: string, member: string): Promise<void> {
    await this.#fenced('ZREM', queue, [member]);
  }

  async claimDue(queue: string, now: number, limit: number, leaseMs = DEFAULT_LEASE_MS): Promise<string[]> {
    checkScore(now, 'now', 'claimDue');
    if (limit === 0) return [];
    checkPositiveInteger(limit, 'limit', 'claimDue');
    const until = String(now + ttlMilliseconds(leaseMs, 'claimDue'));
    const args = [redisScore(now), String(limit), until];
    return (await this.#call((deadline) => runScript(this.#client, CLAIM_DUE, [this.#key(queue)], args, deadline))) as string[];
  }

  async completeDue(queue: string, member: string, claimedUntil: number): Promise<void> {
    checkScore(claimedUntil, 'claimedUntil', 'completeDue');
    await this.#call((deadline) => runScript(this.#client, COMPLETE_DUE, [this.#key(queue)], [member, String(claimedUntil)], deadline));
  }

  async hitWindow(key: string, now: number, windowMs: number, limit: number): Promise<WindowHit> {
    const hit = { key, now, windowMs, limit };
    checkWindowCheck(hit, 'hitWindow');
    const verdict = (await this.#call((deadline) => runScript(this.#client, HIT_WINDOW, this.#hitKeys([hit]), pushHitArgs([], [hit], 'hitWindow'), deadline))) as number[];
    return windowHit(verdict);
  }

  async pushNumbered(push: NumberedPush): Promise<NumberedPushResult> {
    const { key, maxLength, sequence, entry, publish, hits = [], guard, versions = [] } = push;
    checkNumberedPush(push);
    const keys = [...this.#hitKeys(hits), ...versions.map((read) => this.#key(read.key)), ...(guard ? [this.#key(guard.key)] : []), this.#key(key), this.#key(sequence)];
    const args = pushHitArgs([String(hits.length), String(maxLength), guard ? '1' : '0'], hits, 'pushNumbered');
    args.push(String(versions.length));
    for (const read of versions) args.push(String(read.expectedVersion));
    if (guard) {
      const values = guard.oneOf.map((value) => encodeValue(value, 'pushNumbered'));
      args.push(guard.part, String(values.length), ...values, String(guard.without.length), ...guard.without);
    }
    args.push(entry.before, entry.after);
    if (publish) {
      args.push(this.#key(publish.channel));
      for (const message of publish.messages) args.push(message.before, message.after);
    }
    const [status, result] = (await this.#call((deadline) => runScript(this.#client, PUSH_NUMBERED, keys, args, deadline))) as [number, unknown];
    if (status === 1) return { ok: true, number: result as number };
    return status === 2 ? { ok: false, refused: (result as number[][]).map(windowHit) } : { ok: false, unmet: true };
  }

  async listRange<T = unknown>(key: string): Promise<T[]> {
    return (await this.#call(() => this.#client.lRange(this.#key(key), 0, -1))).map((json) => JSON.parse(json) as T);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#probe);
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
    clearTimeout(this.#probe);
    this.#handlers.clear();
    this.#upstream.clear();
    for (const client of [this.#client, this.#subscriber]) if (client.isOpen) client.destroy();
  }

  /** A plain one-key command, fenced like the scripts (see FENCE in redis-scripts). */
  #fenced(command: string, key: string, args: string[]): Promise<unknown> {
    return this.#call((deadline) => runScript(this.#client, CALL, [this.#key(key)], [command, ...args], deadline));
  }

  /** The KEYS of limit hits in a script (see HITS in redis-scripts): their windows, then the hit sequence. */
  #hitKeys(hits: readonly WindowCheck[]): string[] {
    return hits.length === 0 ? [] : [...hits.map((hit) => this.#key(hit.key)), this.#key(HIT_SEQUENCE_KEY)];
  }

  #key(key: string): string {
    return this.#prefix + key;
  }

  /** The trailing script arguments of a publication: the prefixed channel, then the messages. */
  #pushPublishArgs(args: string[], publish: Publication | undefined): void {
    if (!publish) return;
    args.push(this.#key(publish.channel));
    for (const message of publish.messages) args.push(message);
  }
}

/** The ARGV of limit hits in a script, after `args`: now, window ms, limit each. Answers `args`. */
function pushHitArgs(args: string[], hits: readonly WindowCheck[], method: string): string[] {
  for (const hit of hits) args.push(String(hit.now), String(ttlMilliseconds(hit.windowMs, method)), String(hit.limit));
  return args;
}

function windowHit([allowed, count, retryAfterMs]: number[]): WindowHit {
  return { allowed: allowed === 1, count, retryAfterMs };
}

/** A document's hash as HGETALL gives it (see COMMIT in redis-scripts): null when absent. */
function decodeDoc<T>(hash: string[]): VersionedDoc<T> | null {
  if (hash.length === 0) return null;
  let version = 0;
  let whole: string | undefined;
  const parts: Record<string, unknown> = {};
  for (let i = 0; i < hash.length; i += 2) {
    const field = hash[i];
    if (field === 'v') version = Number(hash[i + 1]);
    else if (field === 'd') whole = hash[i + 1];
    else parts[field.slice(2)] = JSON.parse(hash[i + 1]);
  }
  return { version, value: (whole === undefined ? parts : JSON.parse(whole)) as T };
}

/** The fence refuses a little before the caller gives up, so that a reply in flight is not taken for a refusal. */
const FENCE_MARGIN_MS = 100;
const PROBE_EVERY_MS = 200;

/** Redis refused a call that reached it after its deadline (see FENCE in redis-scripts): nothing was applied. */
function isFenceRefusal(error: unknown): boolean {
  return error instanceof ErrorReply && error.message.startsWith('DEADLINE');
}

/** Errors of the connection, not of the command: the call may be retried when Redis is back. */
function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof ErrorReply) return /^(DEADLINE|LOADING|BUSY|MASTERDOWN|TRYAGAIN)\b/.test(error.message);
  return CONNECTION_ERRORS.some((type) => error instanceof type) || /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT/.test(error.message);
}

const CONNECTION_ERRORS = [
  ClientOfflineError, ClientClosedError, SocketClosedUnexpectedlyError, ConnectionTimeoutError, SocketTimeoutError, TimeoutError, ReconnectStrategyError,
];

interface SocketOptions {
  connectTimeout: number;
  reconnectStrategy: (retries: number) => number | false;
}

/**
 * At start an unreachable Redis is a configuration error to report now, not to wait out; once
 * connected, a lost connection is retried with backoff (commands wait in the offline queue).
 * `onReconnected` runs at each 'ready' after the first: the connection was lost and is back.
 */
function connection(
  make: (socket: SocketOptions) => RedisClient,
  connectTimeoutMs: number,
  onError: (error: unknown) => void,
  onReconnected?: () => void,
): RedisClient {
  let wasReady = false;
  const client = make({
    connectTimeout: connectTimeoutMs,
    // Short and capped: the store answers 503 while offline, so reconnecting soon is what recovers.
    reconnectStrategy: (retries) => (wasReady ? Math.min(2 ** retries * 50, 500) : false),
  });
  client.on('ready', () => {
    if (wasReady) onReconnected?.();
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
