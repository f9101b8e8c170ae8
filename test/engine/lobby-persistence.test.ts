import { expect, it } from 'vitest';
import { LobbyRecordRepository } from '../../src/db/lobby-record-repository';
import { lobbyKey, OPEN_LOBBIES } from '../../src/engine/live-keys';
import { callerOf, describeEngine } from './engine-harness';
import { detailOf, drafted, gathered } from './lobby-scenario';

describeEngine('lobby persistence', (world) => {
  it('writes every phase change to Postgres', async () => {
    const w = world();
    const records = new LobbyRecordRepository(w.database.db);
    const g = await gathered(w, 'ultiduo');
    expect((await records.load(g.code))?.phase).toBe('gathering');
    await drafted(w, g);
    const stored = await records.load(g.code);
    expect(stored?.phase).toBe('ready_check');
    expect(stored?.version).toBe((await detailOf(w, g.code)).version);
  });

  it('rebuilds a lobby the live store lost from Postgres, and carries on from there', async () => {
    const w = world();
    const g = await gathered(w, '4v4');
    const before = await detailOf(w, g.code);
    await w.live.delete(lobbyKey(g.code));
    // Rebuilt one version up: a client holding the old version must not take the rebuilt one for it.
    expect(await w.engine.detail(g.code)).toEqual({ ...before, version: before.version + 1 });
    expect(await w.live.get(lobbyKey(g.code))).not.toBeNull();
    await w.engine.command(g.code, { type: 'start-draft' }, callerOf(g.host));
    expect((await detailOf(w, g.code)).version).toBe(before.version + 2);
  });

  it('rebuilds a lost lobby on the command path too, keeping its members to one lobby', async () => {
    const w = world();
    const g = await gathered(w, 'ultiduo');
    const [newcomer] = await w.users(1);
    // Room for the newcomer: the lobby is full as gathered.
    await w.engine.command(g.code, { type: 'leave' }, callerOf(g.users[3]));
    await w.live.delete(lobbyKey(g.code));
    await w.engine.command(g.code, { type: 'join' }, callerOf(newcomer));
    expect((await detailOf(w, g.code)).pool.map((u) => u.id)).toContain(newcomer.id);
    await expect(w.engine.create(callerOf(g.users[1]), {})).rejects.toMatchObject({ kind: 'conflict' });
  });

  it('puts open lobbies back into the live store and the list at start-up', async () => {
    const w = world();
    const g = await gathered(w, 'ultiduo');
    await w.live.delete(lobbyKey(g.code));
    await w.live.scoreSet(OPEN_LOBBIES, g.code, -1);
    await w.live.scoreRemoveBelow(OPEN_LOBBIES, 0);
    expect(await w.engine.summaries()).toEqual([]);
    // The database is shared by this file's tests, so their open lobbies come back too.
    expect((await w.peer().recover()).restored).toBeGreaterThanOrEqual(1);
    expect((await w.engine.summaries()).map((s) => s.code)).toContain(g.code);
  });
});
