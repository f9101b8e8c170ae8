import { describe, expect, it } from 'vitest';
import { conflict, succeed } from '../../src/domain/domain-error';
import { createLobby, memberKey, myVote, type LobbyEvent, type LobbyState } from '../../src/domain/lobby';
import { profileOf } from '../../src/domain/lobby/lobby-view';
import { LobbyGroupCommit, type LobbyRule } from '../../src/engine/lobby-group-commit';
import { lobbyKey } from '../../src/engine/live-keys';
import { LobbyDocuments } from '../../src/engine/lobby-documents';
import type { CasWrite } from '../../src/live/live-store';
import { MemoryLiveStore } from '../../src/live/memory-live-store';

/** A new lobby with an empty pool: what the rules below change is the pool and the version. */
function lobby(code: string): LobbyState {
  const profile = { id: 1, platform_id: '76561198000000001', username: 'host', avatar_url: null, elo: 1000, name_color: null, profile_frame: null };
  const created = createLobby({ code }, { id: 1, profile, isAdmin: false, banned: false, currentLobby: null }, 1_000);
  if (!created.ok) throw created.error;
  return { ...created.state, pool: [] };
}

/** A change that moves nobody in or out (as a vote): nothing but the lobby is read or written. */
const rename: LobbyRule = (state) => succeed<LobbyState, LobbyEvent>({ ...state, version: state.version + 1, name: `v${state.version + 1}` });

const bump: LobbyRule = (state) => succeed<LobbyState, LobbyEvent>({ ...state, version: state.version + 1, pool: [...state.pool, state.version] });

async function setup() {
  const live = new MemoryLiveStore();
  const writes: CasWrite[][] = [];
  const commit = live.commit.bind(live);
  live.commit = (step) => {
    if (step.writes.length > 0) writes.push(step.writes);
    return commit(step);
  };
  const noRecords = { load: async () => null, save: async () => false, saveMany: async () => [], loadOpen: async () => [] };
  const logger = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;
  const documents = new LobbyDocuments(live, noRecords as never, logger);
  await live.compareAndSet([{ key: lobbyKey('ABCDEF'), expectedVersion: 0, value: lobby('ABCDEF'), parts: 'all' }]);
  writes.length = 0;
  return { live, writes, group: new LobbyGroupCommit(live, documents, () => 1_000, logger) };
}

describe('group commit of one lobby', () => {
  it('decides commands that queue together in order, each on the state the one before it left', async () => {
    const { group, live } = await setup();
    const results = await Promise.all(Array.from({ length: 10 }, () => group.run('ABCDEF', [], bump)));
    expect(results.map((r) => r.after.version)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    results.slice(1).forEach((r, i) => expect(r.before).toEqual(results[i].after));
    expect(((await live.get(lobbyKey('ABCDEF')))!.value as LobbyState).version).toBe(11);
  });

  it('writes a burst with fewer compare-and-sets than commands', async () => {
    const { group, writes } = await setup();
    await Promise.all(Array.from({ length: 10 }, () => group.run('ABCDEF', [], bump)));
    expect(writes.length).toBeLessThan(10);
    expect(writes.length).toBeGreaterThanOrEqual(1);
  });

  it('a refused command is answered with its error and changes nothing for the others', async () => {
    const { group, live } = await setup();
    const refuse: LobbyRule = () => ({ ok: false, error: conflict('no') });
    const outcomes = await Promise.allSettled([
      group.run('ABCDEF', [], bump),
      group.run('ABCDEF', [], refuse),
      group.run('ABCDEF', [], bump),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(((await live.get(lobbyKey('ABCDEF')))!.value as LobbyState).version).toBe(3);
  });

  it('a lost race with another instance re-decides the batch on fresh state', async () => {
    const { group, live } = await setup();
    let raced = false;
    const racingBump: LobbyRule = (state, docs, now) => {
      if (!raced) {
        raced = true;
        // Another instance writes between this instance's read and its compare-and-set.
        void live.compareAndSet([{ key: lobbyKey('ABCDEF'), expectedVersion: 1, value: { ...state, version: 2, pool: [99] }, parts: 'all' }]);
      }
      return bump(state, docs, now);
    };
    const result = await group.run('ABCDEF', [], racingBump);
    expect(result.before.version).toBe(2);
    expect(result.after.pool).toEqual([99, 2]);
  });

  it('decides on the lobby it last wrote: the next command is one commit and no read', async () => {
    const { group, live } = await setup();
    await group.run('ABCDEF', [], rename);
    const reads: string[][] = [];
    const getMany = live.getMany.bind(live);
    live.getMany = (keys) => (reads.push(keys), getMany(keys));
    const result = await group.run('ABCDEF', [], rename);
    expect(reads).toEqual([]);
    expect(result.after.version).toBe(3);
  });

  it('decides again, without a read, on the lobby a conflict brings when another instance moved it', async () => {
    const { group, live } = await setup();
    const first = await group.run('ABCDEF', [], rename);
    await live.compareAndSet([{ key: lobbyKey('ABCDEF'), expectedVersion: first.storeVersion, value: { ...first.after, version: 3, name: 'mine' }, parts: 'all' }]);
    const getMany = live.getMany.bind(live);
    let reads = 0;
    live.getMany = (keys) => (reads++, getMany(keys));
    const result = await group.run('ABCDEF', [], rename);
    expect(reads).toBe(0);
    expect(result.before.name).toBe('mine');
    expect(((await live.get(lobbyKey('ABCDEF')))!.value as LobbyState).name).toBe('v4');
  });

  it('answers a refusal decided on a remembered lobby only once a commit finds that lobby current', async () => {
    const { group, live } = await setup();
    const first = await group.run('ABCDEF', [], bump);
    // Another instance moves the lobby on; the rule refuses the old state but takes the new one.
    await live.compareAndSet([{ key: lobbyKey('ABCDEF'), expectedVersion: first.storeVersion, value: { ...first.after, version: 3 }, parts: 'all' }]);
    const onlyAfter3: LobbyRule = (state, docs, now) => (state.version < 3 ? { ok: false, error: conflict('too early') } : bump(state, docs, now));
    expect((await group.run('ABCDEF', [], onlyAfter3)).after.version).toBe(4);
  });

  it('counts each command\'s limit in the batch\'s commit, and refuses only the commands over their limit', async () => {
    const { group, live, writes } = await setup();
    const refuse = () => new Error('429');
    const limit = (user: number) => ({ hit: { key: `rate:${user}`, now: 1_000, windowMs: 10_000, limit: 1 }, refuse });
    const outcomes = await Promise.allSettled([
      group.run('ABCDEF', [], bump, { limit: limit(1) }),
      group.run('ABCDEF', [], bump, { limit: limit(1) }),
      group.run('ABCDEF', [], bump, { limit: limit(2) }),
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? 'ok' : (o.reason as Error).message))).toEqual(['ok', '429', 'ok']);
    expect(((await live.get(lobbyKey('ABCDEF')))!.value as LobbyState).version).toBe(3);
    // Each allowed command counted once, whatever the rounds: both windows are full now.
    for (const user of [1, 2]) expect((await live.hitWindow(`rate:${user}`, 1_001, 10_000, 1)).allowed).toBe(false);
    expect(writes.length).toBeGreaterThanOrEqual(1);
  });

  it('rewrites in parts a lobby that an older version stored in one piece', async () => {
    const { group, live } = await setup();
    const stored = (await live.get<LobbyState>(lobbyKey('ABCDEF')))!;
    await live.compareAndSet([{ key: lobbyKey('ABCDEF'), expectedVersion: stored.version, value: stored.value }]);
    await group.run('ABCDEF', [], bump);
    expect((await group.run('ABCDEF', [], bump)).after.pool).toEqual([1, 2]);
    expect(((await live.get(lobbyKey('ABCDEF')))!.value as LobbyState).version).toBe(3);
  });

  it('decides on a lobby an older version stored with bare user ids as on one keyed by member', async () => {
    const { group, live } = await setup();
    const stored = (await live.get<LobbyState>(lobbyKey('ABCDEF')))!;
    const [map] = stored.value.mapPool;
    const bare = { ...stored.value, votes: { '1': map }, profiles: { '1': stored.value.profiles[memberKey(1)] } };
    await live.compareAndSet([{ key: lobbyKey('ABCDEF'), expectedVersion: stored.version, value: bare, parts: 'all' }]);
    const decidedOn: LobbyState[] = [];
    const { after } = await group.run('ABCDEF', [], (state, docs, now) => {
      decidedOn.push(state);
      return rename(state, docs, now);
    });
    expect(decidedOn[0].votes).toEqual({ [memberKey(1)]: map });
    expect(myVote(after, 1)).toBe(map);
    expect(profileOf(after, 1).username).toBe('host');
  });

  it('answers 404 for a lobby that does not exist', async () => {
    const { group } = await setup();
    await expect(group.run('NOPE00', [], bump)).rejects.toMatchObject({ kind: 'not_found' });
  });
});
