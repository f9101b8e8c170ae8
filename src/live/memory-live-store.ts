import { machineTime } from '../clock/machine-time';
import { ChannelHandlers, logHandlerError } from './channel-handlers';
import {
  DEFAULT_LEASE_MS, type CasResult, type CasWrite, type Commit, type CommitResult, type DueEntry, type LiveStore, type NumberedPush,
  type NumberedPushResult, type NumberedText, type PartGuard, type Publication, type ReadGuard, type Unsubscribe, type VersionedDoc, type WindowCheck, type WindowHit,
} from './live-store';
import {
  checkCommit, checkPositiveInteger, checkScore, checkNumberedPush, checkWindowCheck, encodeParts, encodeValue, ttlMilliseconds,
} from './live-store-input';

/**
 * The in-process live store, for one server instance with nothing configured. It mirrors Redis
 * where callers could notice: one keyspace where a key holds one kind of data (using it as
 * another throws WRONGTYPE), values stored as JSON text, empty sets and lists vanish, pub/sub
 * delivered later rather than inside `publish`. Every method runs to completion without awaiting,
 * so each is atomic in this single-threaded process.
 */
export interface MemoryLiveStoreOptions {
  /** Milliseconds since the epoch; tests pass a controllable one to expire keys without waiting. */
  clock?: () => number;
  onHandlerError?: (error: unknown, channel: string) => void;
  /** Runs once when the store closes (releasing the single-instance lock). */
  onClose?: () => Promise<void>;
}

/**
 * A document as JSON text: one piece, or (written in parts) each part's JSON by name, in the
 * order the parts were first written, as Redis keeps a hash's fields.
 */
type Entry =
  | { type: 'doc'; version: number; json: string; parts?: undefined; expiresAt?: number }
  | { type: 'doc'; version: number; json?: undefined; parts: Map<string, string>; expiresAt?: number }
  | { type: 'counter'; value: number; expiresAt?: number }
  | { type: 'zset'; scores: Map<string, number>; expiresAt?: number }
  | { type: 'list'; items: string[]; expiresAt?: number };
type EntryOf<K extends Entry['type']> = Extract<Entry, { type: K }>;
type ListEntry = EntryOf<'list'>;

type Stored = { json: string; parts?: undefined } | { json?: undefined; parts: Map<string, string> };

/** A write's value as JSON: the whole, or for a write in parts the [name, JSON] of each part it writes. */
type Encoded = { json: string } | { entries: Array<[string, string]> };

function encodeWrite(write: CasWrite): Encoded | null {
  if (write.value === null) return null;
  return write.parts === undefined ? { json: encodeValue(write.value, 'compareAndSet') } : { entries: encodeParts(write) };
}

/** The parts after a write: a copy of the stored ones (none for a whole write) with the written ones replaced. */
function mergedParts(stored: Map<string, string> | undefined, entries: Array<[string, string]>): Map<string, string> {
  const parts = new Map(stored);
  // JSON '' is a removed part (see encodeParts): gone from the hash, as HDEL leaves it.
  for (const [name, json] of entries) {
    if (json === '') parts.delete(name);
    else parts.set(name, json);
  }
  return parts;
}

function documentJson(doc: Stored): string {
  if (doc.parts === undefined) return doc.json;
  let json = '';
  for (const [name, part] of doc.parts) json += `${json === '' ? '' : ','}${JSON.stringify(name)}:${part}`;
  return `{${json}}`;
}

/** Expired keys nobody reads again are swept this often (in writes), as Redis expires them actively. */
const SWEEP_EVERY_WRITES = 1024;

export class MemoryLiveStore implements LiveStore {
  readonly kind = 'memory' as const;
  readonly #entries = new Map<string, Entry>();
  readonly #handlers: ChannelHandlers;
  readonly #clock: () => number;
  readonly #onClose: (() => Promise<void>) | undefined;
  #writesSinceSweep = 0;
  /** Makes each hit a distinct member of its window, as Redis's INCR'd sequence does. */
  #hitSequence = 0;
  #closed = false;

  constructor(options: MemoryLiveStoreOptions = {}) {
    this.#clock = options.clock ?? machineTime.wall;
    this.#onClose = options.onClose;
    this.#handlers = new ChannelHandlers(options.onHandlerError ?? logHandlerError);
  }

  async get<T = unknown>(key: string): Promise<VersionedDoc<T> | null> {
    this.#assertOpen();
    return this.#readDoc<T>(key);
  }

  async getMany<T = unknown>(keys: string[]): Promise<Array<VersionedDoc<T> | null>> {
    this.#assertOpen();
    return keys.map((key) => this.#readDoc<T>(key));
  }

  async versions(keys: string[]): Promise<number[]> {
    this.#assertOpen();
    return keys.map((key) => this.#readDoc(key)?.version ?? 0);
  }

  async getParts<T extends object = Record<string, unknown>>(key: string, parts: readonly (keyof T & string)[]): Promise<VersionedDoc<Partial<T>> | null> {
    this.#assertOpen();
    const doc = this.#readDoc<Record<string, unknown>>(key);
    if (!doc) return null;
    const value: Record<string, unknown> = {};
    for (const part of parts) if (Object.hasOwn(doc.value, part)) value[part] = doc.value[part];
    return { version: doc.version, value: value as Partial<T> };
  }

  async compareAndSet(writes: CasWrite[], publish?: Publication, schedule?: DueEntry): Promise<CasResult> {
    const result = await this.commit({ writes, publish, schedule });
    return 'current' in result ? { ok: false, conflictKey: result.conflictKey } : (result as CasResult);
  }

  async commit(commit: Commit): Promise<CommitResult> {
    this.#assertOpen();
    checkCommit(commit);
    const { writes, guards = [], hits = [], publish, schedule } = commit;
    // Before anything is checked or counted: a value JSON cannot hold fails the call alone.
    const encoded = writes.map(encodeWrite);
    const verdicts = this.#windowVerdicts(hits);
    if (verdicts.some((verdict) => !verdict.allowed)) return { ok: false, refused: verdicts };
    const checked = [...guards, ...writes];
    const conflict = checked.find((entry) => this.#moved(entry));
    if (conflict) {
      this.#countHits(hits);
      return { ok: false, conflictKey: conflict.key, current: new Map(checked.map((entry) => [entry.key, this.#readDoc(entry.key)])) };
    }
    const stored = writes.map((write, i): Stored | null => {
      const value = encoded[i];
      if (value === null) return null;
      if ('json' in value) return value;
      if (write.parts === 'all') return { parts: mergedParts(undefined, value.entries) };
      const current = this.#typed(write.key, 'doc')!;
      if (current.parts === undefined) throw new Error(`WRONGFORM: "${write.key}" was not written in parts`);
      // The named parts replace the stored ones; the others stay as stored, as in Redis's hash.
      return { parts: mergedParts(current.parts, value.entries) };
    });
    // A queue holding another kind of data fails here, before anything is written.
    const due = schedule && { ...schedule, scores: this.#zset(schedule.queue) };
    this.#countHits(hits);
    const now = this.#clock();
    const versions = writes.map((write, i) => {
      const written = stored[i];
      if (written === null) {
        this.#entries.delete(write.key);
        return 0;
      }
      const version = write.expectedVersion + 1;
      const expiresAt = write.ttlMs === undefined ? undefined : now + ttlMilliseconds(write.ttlMs, 'compareAndSet');
      this.#entries.set(write.key, { type: 'doc', version, ...written, expiresAt });
      return version;
    });
    due?.scores.set(due.member, due.dueAt);
    this.#wrote();
    this.#publishAll(publish);
    return { ok: true, versions };
  }

  async delete(key: string): Promise<void> {
    this.#assertOpen();
    this.#entries.delete(key);
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    this.#assertOpen();
    const ms = ttlMilliseconds(ttlMs, 'expire');
    const entry = this.#live(key);
    if (!entry) return false;
    entry.expiresAt = this.#clock() + ms;
    return true;
  }

  async increment(key: string): Promise<number> {
    this.#assertOpen();
    return this.#count(key);
  }

  #count(key: string): number {
    const counter = this.#typed(key, 'counter');
    if (counter) return ++counter.value;
    this.#entries.set(key, { type: 'counter', value: 1 });
    this.#wrote();
    return 1;
  }

  async publish(channel: string, message: string): Promise<void> {
    this.#assertOpen();
    this.#publishAll({ channel, messages: [message] });
  }

  async subscribe(channel: string, handler: (message: string) => void, interrupted?: () => void): Promise<Unsubscribe> {
    this.#assertOpen();
    // Delivered in-process, a message is never lost: `interrupted` is kept but never called.
    const { token } = this.#handlers.add(channel, handler, interrupted);
    return async () => {
      this.#handlers.remove(channel, token);
    };
  }

  async scoreSet(key: string, member: string, score: number): Promise<void> {
    this.#assertOpen();
    checkScore(score, 'score', 'scoreSet');
    this.#zset(key).set(member, score);
  }

  async scoreRange(key: string, min: number, max: number): Promise<string[]> {
    this.#assertOpen();
    checkScore(min, 'min', 'scoreRange');
    checkScore(max, 'max', 'scoreRange');
    return this.#ranked(key, min, max).map(([member]) => member);
  }

  async scoreRemoveBelow(key: string, score: number): Promise<void> {
    this.#assertOpen();
    checkScore(score, 'score', 'scoreRemoveBelow');
    this.#removeMembers(key, this.#ranked(key, -Infinity, score).filter(([, s]) => s < score));
  }

  async schedule(queue: string, member: string, dueAt: number): Promise<void> {
    this.#assertOpen();
    checkScore(dueAt, 'dueAt', 'schedule');
    this.#zset(queue).set(member, dueAt);
  }

  async unschedule(queue: string, member: string): Promise<void> {
    this.#assertOpen();
    this.#removeMembers(queue, [[member, 0]]);
  }

  async claimDue(queue: string, now: number, limit: number, leaseMs = DEFAULT_LEASE_MS): Promise<string[]> {
    this.#assertOpen();
    checkScore(now, 'now', 'claimDue');
    if (limit === 0) return [];
    checkPositiveInteger(limit, 'limit', 'claimDue');
    const until = now + ttlMilliseconds(leaseMs, 'claimDue');
    const due = this.#ranked(queue, -Infinity, now).slice(0, limit);
    const scores = due.length > 0 ? this.#zset(queue) : null;
    for (const [member] of due) scores!.set(member, until);
    return due.map(([member]) => member);
  }

  async completeDue(queue: string, member: string, claimedUntil: number): Promise<void> {
    this.#assertOpen();
    checkScore(claimedUntil, 'claimedUntil', 'completeDue');
    if (this.#ranked(queue, claimedUntil, claimedUntil).some(([m]) => m === member)) this.#removeMembers(queue, [[member, claimedUntil]]);
  }

  async hitWindow(key: string, now: number, windowMs: number, limit: number): Promise<WindowHit> {
    this.#assertOpen();
    const hit = { key, now, windowMs, limit };
    checkWindowCheck(hit, 'hitWindow');
    const [verdict] = this.#windowVerdicts([hit]);
    if (verdict.allowed) this.#countHits([hit]);
    return verdict;
  }

  /** Each hit's verdict, the earlier hits of the same call counted as made; nothing is recorded. */
  #windowVerdicts(hits: WindowCheck[]): WindowHit[] {
    const earlier = new Map<string, number>();
    return hits.map(({ key, now, windowMs, limit }) => {
      const ttl = ttlMilliseconds(windowMs, 'hitWindow');
      const window = this.#trimWindow(key, now - ttl);
      const count = window.count + (earlier.get(key) ?? 0);
      if (count >= limit) {
        const { oldest } = window;
        return { allowed: false, count, retryAfterMs: oldest === undefined ? 0 : Math.max(0, Math.ceil(oldest + ttl - now)) };
      }
      earlier.set(key, (earlier.get(key) ?? 0) + 1);
      return { allowed: true, count: count + 1, retryAfterMs: 0 };
    });
  }

  /**
   * Removes a window's hits at or before `upTo` (ZREMRANGEBYSCORE -inf upTo) and answers how many
   * are left and the oldest of them, in one pass (the window used to be copied and sorted twice
   * per hit).
   */
  #trimWindow(key: string, upTo: number): { count: number; oldest: number | undefined } {
    const entry = this.#typed(key, 'zset');
    if (!entry) return { count: 0, oldest: undefined };
    let oldest: number | undefined;
    for (const [member, score] of entry.scores) {
      if (score <= upTo) entry.scores.delete(member);
      else if (oldest === undefined || score < oldest) oldest = score;
    }
    if (entry.scores.size === 0) this.#entries.delete(key);
    return { count: entry.scores.size, oldest };
  }

  #countHits(hits: WindowCheck[]): void {
    for (const { key, now, windowMs } of hits) {
      const window = this.#zsetEntry(key);
      window.scores.set(String(++this.#hitSequence), now);
      window.expiresAt = this.#clock() + ttlMilliseconds(windowMs, 'hitWindow');
    }
  }

  async pushNumbered(push: NumberedPush): Promise<NumberedPushResult> {
    this.#assertOpen();
    const { key, maxLength, sequence, entry, publish, hits = [], guard, versions = [] } = push;
    checkNumberedPush(push);
    const verdicts = this.#windowVerdicts(hits);
    if (verdicts.some((verdict) => !verdict.allowed)) return { ok: false, refused: verdicts };
    if (versions.some((read) => this.#moved(read))) return { ok: false, unmet: true };
    if (guard && !this.#holds(guard)) return { ok: false, unmet: true };
    // A list or counter key holding another kind of data fails here, before anything is written.
    this.#typed(key, 'list');
    this.#typed(sequence, 'counter');
    const number = this.#count(sequence);
    this.#countHits(hits);
    const numbered = (text: NumberedText) => text.before + number + text.after;
    const list = this.#listOf(key);
    list.items.push(numbered(entry));
    if (list.items.length > maxLength) list.items.splice(0, list.items.length - maxLength);
    if (publish) this.#publishAll({ channel: publish.channel, messages: publish.messages.map(numbered) });
    return { ok: true, number };
  }

  /** Whether a document is no longer at the version a guard or a write expects (0: absent). */
  #moved(guard: ReadGuard): boolean {
    return (this.#typed(guard.key, 'doc')?.version ?? 0) !== guard.expectedVersion;
  }

  #holds(guard: PartGuard): boolean {
    const doc = this.#typed(guard.key, 'doc');
    if (doc?.parts === undefined) return false;
    const part = doc.parts.get(guard.part);
    return guard.oneOf.some((allowed) => encodeValue(allowed, 'pushNumbered') === part) && !guard.without.some((name) => doc.parts.has(name));
  }

  #listOf(key: string): ListEntry {
    const list = this.#typed(key, 'list');
    if (list) return list;
    const created: ListEntry = { type: 'list', items: [] };
    this.#entries.set(key, created);
    this.#wrote();
    return created;
  }

  async listRange<T = unknown>(key: string): Promise<T[]> {
    this.#assertOpen();
    return (this.#typed(key, 'list')?.items ?? []).map((json) => JSON.parse(json) as T);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#handlers.clear();
    this.#entries.clear();
    await this.#onClose?.();
  }

  /** Queued in call order (microtasks run first in, first out), delivered after the caller's step. */
  #publishAll(publish: Publication | undefined): void {
    if (!publish) return;
    const tokens = this.#handlers.snapshot(publish.channel);
    if (tokens.length === 0) return;
    for (const message of publish.messages) queueMicrotask(() => this.#handlers.deliver(publish.channel, tokens, message));
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('live store is closed');
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= this.#clock()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  #typed<K extends Entry['type']>(key: string, type: K): EntryOf<K> | undefined {
    const entry = this.#live(key);
    if (entry && entry.type !== type) {
      throw new Error(`WRONGTYPE: key "${key}" holds a ${entry.type}, not a ${type}`);
    }
    return entry as EntryOf<K> | undefined;
  }

  #readDoc<T>(key: string): VersionedDoc<T> | null {
    const doc = this.#typed(key, 'doc');
    return doc ? { version: doc.version, value: JSON.parse(documentJson(doc)) as T } : null;
  }

  #zset(key: string): Map<string, number> {
    return this.#zsetEntry(key).scores;
  }

  #zsetEntry(key: string): EntryOf<'zset'> {
    const existing = this.#typed(key, 'zset');
    if (existing) return existing;
    const created: EntryOf<'zset'> = { type: 'zset', scores: new Map() };
    this.#entries.set(key, created);
    this.#wrote();
    return created;
  }

  /** Members with min <= score <= max, in Redis order: by score, then by member. */
  #ranked(key: string, min: number, max: number): Array<[string, number]> {
    const scores = this.#typed(key, 'zset')?.scores;
    if (!scores) return [];
    return [...scores]
      .filter(([, score]) => score >= min && score <= max)
      .sort(([a, sa], [b, sb]) => sa - sb || (a < b ? -1 : a > b ? 1 : 0));
  }

  #removeMembers(key: string, members: Array<[string, number]>): void {
    const entry = this.#typed(key, 'zset');
    if (!entry) return;
    for (const [member] of members) entry.scores.delete(member);
    if (entry.scores.size === 0) this.#entries.delete(key);
  }

  #wrote(): void {
    if (++this.#writesSinceSweep < SWEEP_EVERY_WRITES) return;
    this.#writesSinceSweep = 0;
    for (const key of [...this.#entries.keys()]) this.#live(key);
  }
}
