import { describe, expect, it } from 'vitest';
import { conflict, succeed } from '../../src/domain/domain-error';
import { createLobby, type LobbyEvent, type LobbyState } from '../../src/domain/lobby';
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

const bump: LobbyRule = (state) => succeed<LobbyState, LobbyEvent>({ ...state, version: state.version + 1, pool: [...state.pool, state.version] });

async function setup() {
  const live = new MemoryLiveStore();
  const writes: CasWrite[][] = [];
  const cas = live.compareAndSet.bind(live);
  live.compareAndSet = (w, publish) => {
    writes.push(w);
    return cas(w, publish);
  };
  const noRecords = { load: async () => null, save: async () => false, saveMany: async () => [], loadOpen: async () => [] };
  const documents = new LobbyDocuments(live, noRecords as never, { info: () => undefined, warn: () => undefined, error: () => undefined } as never);
  await live.compareAndSet([{ key: lobbyKey('ABCDEF'), expectedVersion: 0, value: lobby('ABCDEF') }]);
  writes.length = 0;
  return { live, writes, group: new LobbyGroupCommit(live, documents, () => 1_000) };
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
        void live.compareAndSet([{ key: lobbyKey('ABCDEF'), expectedVersion: 1, value: { ...state, version: 2, pool: [99] } }]);
      }
      return bump(state, docs, now);
    };
    const result = await group.run('ABCDEF', [], racingBump);
    expect(result.before.version).toBe(2);
    expect(result.after.pool).toEqual([99, 2]);
  });

  it('answers 404 for a lobby that does not exist', async () => {
    const { group } = await setup();
    await expect(group.run('NOPE00', [], bump)).rejects.toMatchObject({ kind: 'not_found' });
  });
});
