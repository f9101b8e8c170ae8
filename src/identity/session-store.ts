import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { LiveStore } from '../live/live-store';

export const SESSION_COOKIE = 'league_session';
export const SESSION_IDLE_MS = 30 * 24 * 60 * 60 * 1000;
/** Sliding expiry is refreshed at most this often, so an active user costs no write per request. */
const REFRESH_EVERY_MS = 60 * 60 * 1000;

interface SessionDoc {
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

/**
 * Server-side sessions in the live store. The cookie carries `<id>.<hmac>`: the HMAC with the
 * session secret lets a forged cookie be refused without a store round trip, and the store key is
 * a hash of the id, so a dump of the store holds no usable cookie.
 */
export class SessionStore {
  constructor(
    private readonly live: LiveStore,
    private readonly secret: string,
    private readonly clock: () => number,
  ) {}

  async create(userId: number): Promise<{ cookieValue: string; session: Session }> {
    const id = randomBytes(32).toString('base64url');
    const now = this.clock();
    const doc: SessionDoc = { userId, createdAt: now, refreshedAt: now };
    const result = await this.live.compareAndSet([{ key: this.key(id), expectedVersion: 0, value: doc, ttlMs: SESSION_IDLE_MS }]);
    if (!result.ok) throw new Error('session id collision');
    return { cookieValue: `${id}.${this.sign(id)}`, session: { id, userId } };
  }

  /** The session a cookie names, renewing its idle expiry; null when forged, unknown or expired. */
  async resolve(cookieValue: string | undefined): Promise<Session | null> {
    const id = this.verify(cookieValue);
    if (!id) return null;
    const key = this.key(id);
    const found = await this.live.get<SessionDoc>(key);
    if (!found) return null;
    const now = this.clock();
    if (now - found.value.refreshedAt >= REFRESH_EVERY_MS) {
      // A lost race only means another request already refreshed it.
      const renewed = await this.live.compareAndSet([
        { key, expectedVersion: found.version, value: { ...found.value, refreshedAt: now }, ttlMs: SESSION_IDLE_MS },
      ]);
      return { id, userId: found.value.userId, refreshed: renewed.ok };
    }
    return { id, userId: found.value.userId };
  }

  async destroy(cookieValue: string | undefined): Promise<void> {
    const id = this.verify(cookieValue);
    if (id) await this.live.delete(this.key(id));
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
