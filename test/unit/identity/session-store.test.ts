import { describe, expect, it } from 'vitest';
import { LruMap } from '../../../src/collections/lru-map';
import { SessionStore, type SessionCaches, type VerifiedCookie } from '../../../src/identity/session-store';
import type { VersionedDoc } from '../../../src/live/live-store';
import { MemoryLiveStore } from '../../../src/live/memory-live-store';

const SECRET = 'a-session-secret-of-at-least-32-chars';
const HOUR_MS = 60 * 60 * 1000;

/** Another signature of the same length for the same id. */
function forge(cookieValue: string, variant: number): string {
  const [id, mac] = cookieValue.split('.');
  const tail = variant.toString(36).padStart(4, '0');
  return `${id}.${mac.slice(0, -4)}${tail === mac.slice(-4) ? 'zzzz' : tail}`;
}

/** The in-process store, counting the single reads a resolve makes; its version reads (the checks) can be made to fail. */
class ReadCountingStore extends MemoryLiveStore {
  reads = 0;
  failVersionReads = false;

  override get<T = unknown>(key: string): Promise<VersionedDoc<T> | null> {
    this.reads += 1;
    return super.get<T>(key);
  }

  override versions(keys: string[]): Promise<number[]> {
    return this.failVersionReads ? Promise.reject(new Error('store unavailable')) : super.versions(keys);
  }
}

describe('SessionStore', () => {
  it('refuses a forged signature on a genuine id, and never remembers a forged cookie as verified', async () => {
    const verified = new LruMap<string, VerifiedCookie>(1_000);
    const sessions = new SessionStore(new MemoryLiveStore(), SECRET, Date.now, { verified });
    const { cookieValue, session } = await sessions.create(7);
    expect(await sessions.resolve(cookieValue, { recent: true })).toEqual({ id: session.id, userId: 7 });
    expect(verified.size).toBe(1);

    for (let i = 0; i < 200; i++) expect(await sessions.resolve(forge(cookieValue, i), { recent: true })).toBeNull();
    expect(verified.size).toBe(1);
    expect(await sessions.resolve(cookieValue, { recent: true })).toEqual({ id: session.id, userId: 7 });
  });

  it('refuses a session destroyed through this store at once, even from its recent copy', async () => {
    const sessions = new SessionStore(new MemoryLiveStore(), SECRET, Date.now);
    const { cookieValue } = await sessions.create(7);
    expect(await sessions.resolve(cookieValue, { recent: true })).not.toBeNull();
    await sessions.destroy(cookieValue);
    expect(await sessions.resolve(cookieValue, { recent: true })).toBeNull();
  });

  it('refuses a session destroyed by another instance once its recent copy is maxAgeMs old', async () => {
    let realTime = 0;
    const live = new MemoryLiveStore();
    const caches: Partial<SessionCaches> = { recent: { maxAgeMs: 500, checkEveryMs: 60_000, now: () => realTime } };
    const here = new SessionStore(live, SECRET, Date.now, caches);
    const elsewhere = new SessionStore(live, SECRET, Date.now);
    const { cookieValue } = await elsewhere.create(7);
    expect(await here.resolve(cookieValue, { recent: true })).not.toBeNull();
    await elsewhere.destroy(cookieValue);
    // A fresh resolve (admin routes, logins) sees it at once; a recent one once its copy is too old.
    expect(await here.resolve(cookieValue)).toBeNull();
    realTime += 499;
    expect(await here.resolve(cookieValue, { recent: true })).not.toBeNull();
    realTime += 1;
    expect(await here.resolve(cookieValue, { recent: true })).toBeNull();
  });

  it('refuses a session destroyed by another instance as soon as a check of the copies in use finds it gone', async () => {
    const live = new MemoryLiveStore();
    const here = new SessionStore(live, SECRET, Date.now, { recent: { maxAgeMs: 500, checkEveryMs: 60_000, now: () => 0 } });
    const elsewhere = new SessionStore(live, SECRET, Date.now);
    const { cookieValue } = await elsewhere.create(7);
    expect(await here.resolve(cookieValue, { recent: true })).not.toBeNull();
    await elsewhere.destroy(cookieValue);
    await here.checkRecent();
    expect(await here.resolve(cookieValue, { recent: true })).toBeNull();
  });

  it('finds a destroyed session among more sessions in use than one store call of a check reads', async () => {
    const live = new MemoryLiveStore();
    const here = new SessionStore(live, SECRET, Date.now, { recent: { maxAgeMs: 500, checkEveryMs: 60_000, now: () => 0 } });
    const elsewhere = new SessionStore(live, SECRET, Date.now);
    const cookies = [];
    for (let i = 0; i < 1_200; i++) cookies.push((await elsewhere.create(i)).cookieValue);
    for (const cookie of cookies) await here.resolve(cookie, { recent: true });
    await elsewhere.destroy(cookies[1_100]);
    await here.checkRecent();
    expect(await here.resolve(cookies[1_100], { recent: true })).toBeNull();
    expect(await here.resolve(cookies[1_099], { recent: true })).not.toBeNull();
  });

  it('keeps acting on a session past its max age while checks find it unchanged, without reading it again', async () => {
    let realTime = 0;
    const live = new ReadCountingStore();
    const sessions = new SessionStore(live, SECRET, Date.now, { recent: { maxAgeMs: 500, checkEveryMs: 60_000, now: () => realTime } });
    const { cookieValue } = await sessions.create(7);
    for (let i = 0; i < 10; i++) {
      expect(await sessions.resolve(cookieValue, { recent: true })).not.toBeNull();
      realTime += 400;
      await sessions.checkRecent();
    }
    expect(live.reads).toBe(1);
  });

  it('reads a session again after its max age when the check could not reach the store', async () => {
    let realTime = 0;
    const live = new ReadCountingStore();
    const sessions = new SessionStore(live, SECRET, Date.now, { recent: { maxAgeMs: 500, checkEveryMs: 60_000, now: () => realTime } });
    const { cookieValue } = await sessions.create(7);
    await sessions.resolve(cookieValue, { recent: true });
    live.failVersionReads = true;
    realTime += 400;
    await sessions.checkRecent();
    realTime += 100;
    await sessions.resolve(cookieValue, { recent: true });
    expect(live.reads).toBe(2);
  });

  it('renews the idle expiry from a recent copy once an hour has passed, and only once', async () => {
    let now = Date.now();
    const sessions = new SessionStore(new MemoryLiveStore(), SECRET, () => now, { recent: { now: () => 0 } });
    const { cookieValue } = await sessions.create(7);
    expect((await sessions.resolve(cookieValue, { recent: true }))?.refreshed).toBeUndefined();
    now += HOUR_MS;
    expect((await sessions.resolve(cookieValue, { recent: true }))?.refreshed).toBe(true);
    expect((await sessions.resolve(cookieValue, { recent: true }))?.refreshed).toBeUndefined();
    // The store holds the renewal: a fresh read finds nothing due either.
    expect((await sessions.resolve(cookieValue))?.refreshed).toBeUndefined();
  });

  it('does not renew a session another instance renewed since its recent copy was read', async () => {
    let now = Date.now();
    const live = new MemoryLiveStore();
    const here = new SessionStore(live, SECRET, () => now, { recent: { now: () => 0 } });
    const elsewhere = new SessionStore(live, SECRET, () => now);
    const { cookieValue } = await elsewhere.create(7);
    await here.resolve(cookieValue, { recent: true });
    now += HOUR_MS;
    expect((await elsewhere.resolve(cookieValue))?.refreshed).toBe(true);
    expect((await here.resolve(cookieValue, { recent: true }))?.refreshed).toBe(false);
    // Its out-of-date copy was dropped: the next resolve reads the renewed session.
    expect((await here.resolve(cookieValue, { recent: true }))?.refreshed).toBeUndefined();
  });
});
