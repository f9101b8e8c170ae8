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

describeEngine('lobby persistence by state', (world) => {
  /** Saves what is pending, drops the live copy, rebuilds it from Postgres: it must show the same lobby. */
  async function expectSurvivesRebuild(w: ReturnType<typeof world>, code: string, step: string): Promise<void> {
    await w.engine.idle();
    const before = await detailOf(w, code);
    await w.live.delete(lobbyKey(code));
    const rebuilt = await detailOf(w, code);
    for (const field of Object.keys(before) as (keyof typeof before)[]) {
      if (field !== 'version') expect(rebuilt[field], `${field} after ${step}`).toEqual(before[field]);
    }
    expect(rebuilt.version, `version after ${step}`).toBeGreaterThanOrEqual(before.version);
  }

  it('keeps every change LobbyDetail shows across a rebuild, whatever command made it', async () => {
    const w = world();
    const g = await gathered(w, '6v6');
    const [host, red, blu, ...rest] = g.users;
    const as = (u: typeof host) => callerOf(u);
    const run = async (step: string, user: typeof host, command: Parameters<typeof w.engine.command>[1]) => {
      await w.engine.command(g.code, command, as(user));
      await expectSurvivesRebuild(w, g.code, step);
    };
    const pool = (await detailOf(w, g.code)).map_pool;
    await run('vote-map', rest[0], { type: 'vote-map', map: pool[1] });
    await run('kick', host, { type: 'kick', userId: rest[8].id });
    await run('join', rest[8], { type: 'join' });
    await run('leave', rest[7], { type: 'leave' });
    await run('join again', rest[7], { type: 'join' });
    await run('set-captain red', host, { type: 'set-captain', userId: red.id, team: 'red' });
    await run('set-captain blu', host, { type: 'set-captain', userId: blu.id, team: 'blu' });
    await run('start-draft', host, { type: 'start-draft' });
    await run('pick', red, { type: 'pick', userId: rest[0].id });
    await run('unpick', red, { type: 'unpick', userId: rest[0].id });
    await run('pick again', red, { type: 'pick', userId: rest[0].id });
    await run('pick-slot', red, { type: 'pick-slot', team: 'red', index: 5, userId: rest[0].id });
    await run('set-class', rest[0], { type: 'set-class', class: 'pyro' });
    await run('ready', rest[0], { type: 'ready' });
    await run('keep-ready', rest[0], { type: 'keep-ready' });
    await run('drop-to-pool', red, { type: 'drop-to-pool', userId: rest[0].id });
    let lobby = await detailOf(w, g.code);
    while (lobby.phase === 'drafting') {
      const captain = g.users.find((u) => u.id === lobby.captains[lobby.turn!])!;
      await w.engine.command(g.code, { type: 'pick', userId: lobby.pool[0].id }, callerOf(captain));
      lobby = await detailOf(w, g.code);
    }
    expect(lobby.phase).toBe('ready_check');
    await expectSurvivesRebuild(w, g.code, 'the last pick');
    await run('force-start', host, { type: 'force-start' });
    await w.engine.report(g.code, as(red), 2, 1);
    await expectSurvivesRebuild(w, g.code, 'report');

    const other = await gathered(w, 'ultiduo');
    await w.engine.command(other.code, { type: 'cancel' }, callerOf(other.host));
    await expectSurvivesRebuild(w, other.code, 'cancel');
  });

  it('writes changes that move nobody behind, one Postgres write per lobby for a burst of them', async () => {
    const w = world();
    const records = new LobbyRecordRepository(w.database.db);
    const g = await gathered(w, '6v6');
    const pool = (await detailOf(w, g.code)).map_pool;
    const saved = (await records.load(g.code))!.version;
    for (const [i, user] of g.users.entries()) await w.engine.command(g.code, { type: 'vote-map', map: pool[i % pool.length] }, callerOf(user));
    // The answers came before the write: Postgres still holds the version from before the votes.
    expect((await records.load(g.code))!.version).toBe(saved);
    await w.engine.idle();
    expect((await records.load(g.code))!.version).toBe((await detailOf(w, g.code)).version);
  });
});
