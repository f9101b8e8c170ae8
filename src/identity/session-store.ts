import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { LiveStore, VersionedDoc } from '../live/live-store';
import { CheckedReads, type CheckedReadsOptions } from './checked-reads';
import { LruMap } from '../collections/lru-map';

export const SESSION_COOKIE = 'league_session';
export const SESSION_IDLE_MS = 30 * 24 * 60 * 60 * 1000;
/** Sliding expiry is refreshed at most this often, so an active user costs no write per request. */
const REFRESH_EVERY_MS = 60 * 60 * 1000;
/** Cookies verified and sessions read, kept per instance: more than the users active at once. */
const VERIFIED_CAPACITY = 10_000;
const RECENT_CAPACITY = 10_000;
/** Sessions whose versions one store call of a check reads. */
const CHECK_CHUNK = 500;

export interface SessionDoc {
  userId: number;
  createdAt: number;
  refreshedAt: number;
}

export interface Session {
  id: string;
  userId: number;
  /** True when this resolve renewed the idle expiry, so the cookie's Max-Age can be renewed too. */
  refreshed?: boolean;
}

export interface ResolveOptions {
  /**
   * The session may be as this instance knew it current up to half a second ago (checked-reads.ts). Only
   * the routes that already act on a recent user row ask for it (lobby commands, over REST and
   * the socket, the hot path): the staleness they accept stays one bound, while logins, logouts,
   * key and admin routes, and socket handshakes keep reading the store on every request.
   */
  recent?: boolean;
}

/** What a verified cookie names: pure in the cookie and the secret, so remembered without expiry. */
export interface VerifiedCookie {
  id: string;
  key: string;
}

/**
 * Per-instance memory. Cookie value -> what it names, only for cookies that verified: a forged
 * one is never entered, so it is checked (in constant time) on every request and cannot fill the
 * map; finding a cookie here compares it with a stored one only on an equal (per-process seeded)
 * hash. Store key -> the session document as read, for `recent` resolves: how old it may be and
 * how often the copies in use are checked (checked-reads.ts).
 */
export interface SessionCaches {
  verified: LruMap<string, VerifiedCookie>;
  recent: Omit<CheckedReadsOptions, 'capacity'>;
}

/**
 * Server-side sessions in the live store. The cookie carries `<id>.<hmac>`: the HMAC with the
 * session secret lets a forged cookie be refused without a store round trip, and the store key is
 * a hash of the id, so a dump of the store holds no usable cookie.
 *
 * A logout on this instance is exact at once (its copy is dropped); one on another instance, or a
 * session deleted from the store by hand, reaches `recent` reads here within RECENT_MAX_AGE_MS:
 * the copies in use are checked with ONE store read of their versions, so a user's commands need
 * no session read of their own (one store round trip per lobby command, not two).
 */
export class SessionStore {
  readonly #verified: SessionCaches['verified'];
  readonly #recent: CheckedReads<string, VersionedDoc<SessionDoc>>;

  constructor(
    private readonly live: LiveStore,
    private readonly secret: string,
    private readonly clock: () => number,
    caches: Partial<SessionCaches> = {},
  ) {
    this.#verified = caches.verified ?? new LruMap(VERIFIED_CAPACITY);
    this.#recent = new CheckedReads(
      {
        load: (key) => live.get<SessionDoc>(key),
        changed: async (known) => {
          // In chunks: one script over every session in use would hold Redis for milliseconds in a
          // large league. Versions only: the checks run four times a second for every user in use,
          // and reading and parsing the documents themselves grew with the users, not the commands.
          const chunks = [];
          for (let at = 0; at < known.length; at += CHECK_CHUNK) chunks.push(known.slice(at, at + CHECK_CHUNK));
          const read = await Promise.all(chunks.map((chunk) => live.versions(chunk.map(({ key }) => key))));
          return chunks.flatMap((chunk, c) => chunk.flatMap(({ key, value }, i) => (read[c][i] === value.version ? [] : [key])));
        },
      },
      { capacity: RECENT_CAPACITY, ...caches.recent },
    );
  }

  async create(userId: number): Promise<{ cookieValue: string; session: Session }> {
    const id = randomBytes(32).toString('base64url');
    const now = this.clock();
    const doc: SessionDoc = { userId, createdAt: now, refreshedAt: now };
    const result = await this.live.compareAndSet([{ key: this.key(id), expectedVersion: 0, value: doc, ttlMs: SESSION_IDLE_MS }]);
    if (!result.ok) throw new Error('session id collision');
    return { cookieValue: `${id}.${this.sign(id)}`, session: { id, userId } };
  }

  /** The session a cookie names, renewing its idle expiry; null when forged, unknown or expired. */
  async resolve(cookieValue: string | undefined, options: ResolveOptions = {}): Promise<Session | null> {
    const named = this.#named(cookieValue);
    if (!named) return null;
    const { id, key } = named;
    const found = options.recent ? await this.#recent.read(key) : await this.live.get<SessionDoc>(key);
    if (!found) return null;
    const now = this.clock();
    if (now - found.value.refreshedAt < REFRESH_EVERY_MS) return { id, userId: found.value.userId };
    // A lost race only means another request already refreshed it (or, for a recent copy, that
    // the copy is out of date: the next request reads the store again).
    const value = { ...found.value, refreshedAt: now };
    const renewed = await this.live.compareAndSet([{ key, expectedVersion: found.version, value, ttlMs: SESSION_IDLE_MS }]);
    // The renewed document is what this instance reuses, so a recent copy never renews twice.
    if (renewed.ok) this.#recent.remember(key, { version: renewed.versions[0], value });
    else this.#recent.forget(key);
    return { id, userId: found.value.userId, refreshed: renewed.ok };
  }

  async destroy(cookieValue: string | undefined): Promise<void> {
    const named = this.#named(cookieValue);
    if (!named) return;
    await this.live.delete(named.key);
    this.#recent.forget(named.key);
  }

  /** One check of the recent copies in use (the timer's; tests call it to not wait for the timer). */
  checkRecent(): Promise<void> {
    return this.#recent.check();
  }

  /** Stops the checks of the copies in use (shutdown). */
  stop(): void {
    this.#recent.stop();
  }

  #named(cookieValue: string | undefined): VerifiedCookie | null {
    if (!cookieValue) return null;
    const known = this.#verified.get(cookieValue);
    if (known) return known;
    const id = this.verify(cookieValue);
    if (!id) return null;
    const named = { id, key: this.key(id) };
    this.#verified.set(cookieValue, named);
    return named;
  }

  private key(id: string): string {
    return `session:${createHash('sha256').update(id).digest('base64url')}`;
  }

  private sign(id: string): string {
    return createHmac('sha256', this.secret).update(id).digest('base64url');
  }

  private verify(cookieValue: string | undefined): string | null {
    if (!cookieValue) return null;
    const dot = cookieValue.indexOf('.');
    if (dot <= 0) return null;
    const id = cookieValue.slice(0, dot);
    const given = Buffer.from(cookieValue.slice(dot + 1));
    const expected = Buffer.from(this.sign(id));
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
  }
}
