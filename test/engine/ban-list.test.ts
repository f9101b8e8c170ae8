import { describe, expect, it } from 'vitest';
import type { BanRecord } from '../../src/db/ban-repository';
import { BanList } from '../../src/engine/ban-list';
import { MAX_AGE_MS } from '../../src/engine/ban-list';
import type { ReadGuard } from '../../src/live/live-store';
import { MemoryLiveStore } from '../../src/live/memory-live-store';

const NOW = 1_800_000_000_000;

function ban(userId: number, fields: Partial<BanRecord> = {}): BanRecord {
  return { id: userId * 10, userId, reason: 'griefing', createdBy: 1, createdAt: new Date(NOW - 60_000), expiresAt: null, liftedAt: null, ...fields };
}

/** Two instances' ban lists over one live store and one "database" (an array the test edits). */
function world() {
  const live = new MemoryLiveStore();
  let now = NOW;
  const table: BanRecord[] = [];
  let loads = 0;
  const loadCurrent = async () => {
    loads++;
    return [...table].reverse();
  };
  const clock = () => now;
  const list = () => new BanList({ live, loadCurrent, clock });
  return { live, table, list, advance: (ms: number) => (now += ms), loads: () => loads, at: () => new Date(now) };
}

/** A chat-like push guarded on what the list's answer was read at: whether the store still found it current. */
async function stillCurrent(live: MemoryLiveStore, guard: ReadGuard): Promise<boolean> {
  const pushed = await live.pushNumbered({ key: 'chat', maxLength: 10, sequence: 'chat:seq', entry: { before: '', after: '' }, versions: [guard] });
  return pushed.ok;
}

describe('the ban list', () => {
  it('answers the ban in force of a user, and null for others', async () => {
    const w = world();
    w.table.push(ban(7));
    const bans = w.list();
    expect(await bans.activeBan(7, w.at())).toMatchObject({ userId: 7 });
    expect(await bans.activeBan(8, w.at())).toBeNull();
  });

  it('reads the database once while the list is current', async () => {
    const w = world();
    const bans = w.list();
    for (let i = 0; i < 20; i++) await bans.activeBan(i, w.at());
    expect(w.loads()).toBe(1);
  });

  it('sees a ban given on another instance at once, when that instance announced it', async () => {
    const w = world();
    const here = w.list();
    const there = w.list();
    expect(await here.activeBan(7, w.at())).toBeNull();
    w.table.push(ban(7));
    await there.changed();
    expect(await here.activeBan(7, w.at())).toMatchObject({ userId: 7 });
  });

  it('sees a lift announced on another instance at once', async () => {
    const w = world();
    w.table.push(ban(7));
    const here = w.list();
    expect(await here.activeBan(7, w.at())).not.toBeNull();
    w.table[0] = { ...w.table[0], liftedAt: w.at() };
    await w.list().changed();
    expect(await here.activeBan(7, w.at())).toBeNull();
  });

  it('sees a ban written behind its back (an operator’s SQL) once the list is half a second old', async () => {
    const w = world();
    const bans = w.list();
    expect(await bans.activeBan(7, w.at())).toBeNull();
    w.table.push(ban(7));
    w.advance(499);
    expect(await bans.activeBan(7, w.at())).toBeNull();
    w.advance(1);
    expect(await bans.activeBan(7, w.at())).toMatchObject({ userId: 7 });
  });

  it('ends a ban that expires by the clock alone, without reading again', async () => {
    const w = world();
    w.table.push(ban(7, { expiresAt: new Date(NOW + 100) }));
    const bans = w.list();
    expect(await bans.activeBan(7, w.at())).not.toBeNull();
    expect(await bans.activeBan(7, new Date(NOW + 100))).toBeNull();
    expect(w.loads()).toBe(1);
  });

  it('answers the newest ban in force when a user has several', async () => {
    const w = world();
    w.table.push(ban(7, { id: 1 }), ban(7, { id: 2, liftedAt: new Date(NOW - 1) }), ban(7, { id: 3 }));
    expect((await w.list().activeBan(7, w.at()))?.id).toBe(3);
  });

  it('shares one read among the checks that find the list stale together', async () => {
    const w = world();
    const bans = w.list();
    await Promise.all(Array.from({ length: 10 }, (_, i) => bans.activeBan(i, w.at())));
    expect(w.loads()).toBe(1);
  });

  it('knows nothing before its first read, so a caller asks activeBan', () => {
    const w = world();
    expect(w.list().knownBan(7, w.at())).toBeNull();
  });

  it('answers from the list it found current without reading, bans and non-bans alike', async () => {
    const w = world();
    w.table.push(ban(7));
    const bans = w.list();
    await bans.activeBan(8, w.at());
    expect(bans.knownBan(7, w.at())?.banned).toBe(true);
    expect(bans.knownBan(8, w.at())?.banned).toBe(false);
    expect(w.loads()).toBe(1);
  });

  it('gives a guard that holds while no ban was announced since the list was found current', async () => {
    const w = world();
    const here = w.list();
    await here.activeBan(7, w.at());
    const known = here.knownBan(7, w.at())!;
    expect(await stillCurrent(w.live, known.guard)).toBe(true);
    await w.list().changed();
    expect(await stillCurrent(w.live, known.guard)).toBe(false);
  });

  it('no longer answers without a read once its list is past the age bound', async () => {
    const w = world();
    const bans = w.list();
    await bans.activeBan(7, w.at());
    w.advance(MAX_AGE_MS);
    expect(bans.knownBan(7, w.at())).toBeNull();
  });
});
