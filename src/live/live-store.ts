/**
 * The live-state store port. Everything that must be shared between server instances in real
 * time (lobby documents, membership indexes, sessions, nonces, presence, rate-limit windows,
 * deadlines) goes through this interface. Two implementations pass one contract suite:
 * `RedisLiveStore` (production, multi-instance) and `MemoryLiveStore` (embedded, one instance).
 *
 * Values are JSON-serialisable. Versions start at 1 for a new document; an absent document has
 * version 0, so `expectedVersion: 0` means "create only if absent".
 */
export interface VersionedDoc<T = unknown> {
  version: number;
  value: T;
}

export interface CasWrite {
  key: string;
  /** The version the caller read (0 = must be absent). */
  expectedVersion: number;
  /** The new value, or null to delete the key. */
  value: unknown | null;
  /** Expiry of the written document, in milliseconds from now; omitted = no expiry. */
  ttlMs?: number;
  /**
   * Stores the value (an object) field by field, so that a later write moves only what changed:
   * 'all' writes every field of the value; a list names the only fields that differ from the
   * document at `expectedVersion` (a listed field absent from the value is removed). A list needs
   * that document to exist and to have been written in parts; reads return the whole object
   * either way. Omitted: the value is stored as one piece.
   */
  parts?: 'all' | readonly string[];
}

/** A document a decision read without writing it: the commit happens only if it is still at this version (0 = absent). */
export interface ReadGuard {
  key: string;
  expectedVersion: number;
}

/** A hit on a sliding window (as `hitWindow`) counted in the same atomic step as a commit. */
export interface WindowCheck {
  key: string;
  now: number;
  windowMs: number;
  limit: number;
}

/**
 * One atomic step of a command: its limit hits, the versions it read, its writes, what it
 * announces and the deadline it sets. In that order: if any hit is refused nothing is counted
 * and nothing written; otherwise every hit counts, and the writes (publish, schedule) happen only
 * if every guard and every written key is still at its expected version.
 */
export interface Commit {
  hits?: WindowCheck[];
  guards?: ReadGuard[];
  writes: CasWrite[];
  publish?: Publication;
  schedule?: DueEntry;
}

/**
 * A conflict carries the documents of every guard and written key as they are now, read in the
 * same step, so the caller decides again on them without another round trip.
 */
export type CommitResult =
  | { ok: true; versions: number[] }
  | { ok: false; refused: WindowHit[] }
  | { ok: false; conflictKey: string; current: ReadonlyMap<string, VersionedDoc | null> };

/** On success the new version of each written key (0 for a deletion), in the order given. */
export type CasResult = { ok: true; versions: number[] } | { ok: false; conflictKey: string };

export interface WindowHit {
  allowed: boolean;
  /** Hits inside the window after this one (refused hits are not counted). */
  count: number;
  /** When refused: milliseconds until the oldest counted hit leaves the window. 0 when allowed. */
  retryAfterMs: number;
}

export type Unsubscribe = () => Promise<void>;

/**
 * The JSON text of a value with the place of a number the store gives it left out: the text
 * before the number and the text after it (`{"id":` and `,"text":"hi"}`).
 */
export interface NumberedText {
  before: string;
  after: string;
}

/**
 * One step of a numbered capped list (lobby chat): the limit hits are counted (refused: nothing
 * else happens), the guard checked, the next number of the counter `sequence` (as `increment` counts) is given to
 * the entry, the entry is pushed on the list `key`, which keeps its newest `maxLength`, and the
 * messages go out on `channel` with the same number. Numbering and pushing in one step keeps the
 * numbers increasing in list order whichever instances push.
 */
export interface NumberedPush {
  key: string;
  maxLength: number;
  sequence: string;
  entry: NumberedText;
  publish?: { channel: string; messages: NumberedText[] };
  hits?: WindowCheck[];
  /** Checked after the hits: when it does not hold, nothing is counted or done (`unmet`). */
  guard?: PartGuard;
  /** Documents the decision read (the ban list's generation), checked with `guard`: one not at its version (0 = absent) leaves the push `unmet` too. */
  versions?: ReadGuard[];
}

/**
 * A condition on another document, read in the same step: it is stored in parts (see
 * CasWrite.parts), its part `part` is one of `oneOf` (as JSON values) and it has none of the
 * parts named in `without`.
 */
export interface PartGuard {
  key: string;
  part: string;
  oneOf: readonly unknown[];
  without: readonly string[];
}

export type NumberedPushResult = { ok: true; number: number } | { ok: false; refused: WindowHit[] } | { ok: false; unmet: true };

/**
 * Messages to publish on one channel in the same atomic step as a write: published only when the
 * write happens, in the order given, and ordered among every instance's publishes by the order of
 * the writes themselves. That is what lets subscribers see one lobby's versions strictly in order
 * whichever instance committed them (two instances publishing after their writes could cross).
 */
export interface Publication {
  channel: string;
  messages: string[];
}

/**
 * A deadline to set in the same atomic step as a write, exactly as `schedule(queue, member, dueAt)`
 * would: set only when the write happens. Since the steps of all instances run one at a time, the
 * last write's deadline is the one left in the queue: no later read is needed to find out whether
 * a newer write overtook it.
 */
export interface DueEntry {
  queue: string;
  member: string;
  /** ms epoch, as for `schedule`. */
  dueAt: number;
}

/** How long a claimed deadline stays with its worker before it is due again, unless completed. */
export const DEFAULT_LEASE_MS = 10_000;

export interface LiveStore {
  readonly kind: 'memory' | 'redis';

  get<T = unknown>(key: string): Promise<VersionedDoc<T> | null>;
  getMany<T = unknown>(keys: string[]): Promise<Array<VersionedDoc<T> | null>>;
  /** Each document's version, 0 where there is none, without the documents: for a check whether copies are current. */
  versions(keys: string[]): Promise<number[]>;
  /**
   * Only the named top-level fields of an object document (those it lacks are left out), or null
   * when the document is absent: a few bytes of a document written in parts (see CasWrite.parts)
   * instead of all of it.
   */
  getParts<T extends object = Record<string, unknown>>(key: string, parts: readonly (keyof T & string)[]): Promise<VersionedDoc<Partial<T>> | null>;
  /**
   * All writes happen, atomically, only if every key is still at its expected version; `publish`
   * goes out and `schedule` is set in the same step, and only then. The queue of `schedule` must
   * not be one of the written keys.
   */
  compareAndSet(writes: CasWrite[], publish?: Publication, schedule?: DueEntry): Promise<CasResult>;
  /** A command's limit check, guarded reads and compare-and-set in one round trip: see Commit. */
  commit(commit: Commit): Promise<CommitResult>;
  /** Unconditional delete (logout, cleanup). */
  delete(key: string): Promise<void>;
  /** Resets the expiry of a key without changing its value or version; false when absent. */
  expire(key: string, ttlMs: number): Promise<boolean>;

  /** Atomic counter, for ids that must be unique across instances (party ids, invite ids). */
  increment(key: string): Promise<number>;

  publish(channel: string, message: string): Promise<void>;
  /**
   * `interrupted`: this subscription may have missed messages (its connection was lost) and is in
   * place again, so what the subscriber built from the messages may be behind; whatever arrives
   * after the call was published after it. A store that cannot lose a message never calls it.
   */
  subscribe(channel: string, handler: (message: string) => void, interrupted?: () => void): Promise<Unsubscribe>;

  /** Sorted-set scores: presence (member -> last seen), leaderboards, anything ranked by time. */
  scoreSet(key: string, member: string, score: number): Promise<void>;
  scoreRange(key: string, min: number, max: number): Promise<string[]>;
  scoreRemoveBelow(key: string, score: number): Promise<void>;

  /** Durable deadlines: a member of a queue becomes due at `dueAt` (ms epoch); re-scheduling moves it. */
  schedule(queue: string, member: string, dueAt: number): Promise<void>;
  unschedule(queue: string, member: string): Promise<void>;
  /**
   * Claims up to `limit` members due at `now`, each by one caller only. A claim is a lease: the
   * member stays in the queue, due again at `now + leaseMs` (default DEFAULT_LEASE_MS), so a
   * worker that dies before `completeDue` loses nothing; the work must bear running twice.
   */
  claimDue(queue: string, now: number, limit: number, leaseMs?: number): Promise<string[]>;
  /**
   * Ends a claim made with lease end `claimedUntil` (now + leaseMs): removes the member unless it
   * was scheduled again since (its work set a new deadline), which is then kept.
   */
  completeDue(queue: string, member: string, claimedUntil: number): Promise<void>;

  /** Sliding-window rate counter: records a hit at `now` unless `limit` hits are already within `windowMs`. */
  hitWindow(key: string, now: number, windowMs: number, limit: number): Promise<WindowHit>;

  /** Capped list, newest last (lobby chat), its entries numbered, with limit hits and publication in one step: see NumberedPush. */
  pushNumbered(push: NumberedPush): Promise<NumberedPushResult>;
  /** A capped list's entries, oldest first. */
  listRange<T = unknown>(key: string): Promise<T[]>;

  close(): Promise<void>;
}
