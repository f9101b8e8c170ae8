import { expect, it } from 'vitest';
import { LobbyRecordRepository, type LobbyDocument } from '../../src/db/lobby-record-repository';
import { lobbyKey, lobbyMemberKey } from '../../src/engine/live-keys';
import type { LobbyRecords } from '../../src/engine/engine-ports';
import { PENDING_PART } from '../../src/engine/lobby-documents';
import type { LiveStore } from '../../src/live/live-store';
import { callerOf, describeEngine, type EngineWorld } from './engine-harness';
import { detailOf, gathered } from './lobby-scenario';
import { poll } from '../support/poll';

/**
 * Issue 21, item 1, at the engine: a change of membership or phase is committed to the live store
 * pending (announced to nobody, built on by nobody) while Postgres writes it; one that Postgres did
 * not take is taken back, and the command answers the error having changed nothing anyone saw.
 * (test/faults/durable-lobby-commands.test.ts causes the same through a stalled Postgres.)
 */

/**
 * Postgres as an instance sees it, refusing writes while `down` (the error a lost connection gives),
 * answering reads; a write waits for `gate` first, and with `writeThenHang` it is written and never
 * answered (its process died before the answer).
 */
function flakyRecords(w: EngineWorld) {
  const real = new LobbyRecordRepository(w.database.db);
  const state = { down: true, writeThenHang: false, gate: Promise.resolve() };
  const records: LobbyRecords = {
    load: (code) => real.load(code),
    loadOpen: () => real.loadOpen(),
    save: (doc, at) => real.save(doc, at),
    async saveMany(docs: LobbyDocument[], at?: Date) {
      await state.gate;
      if (state.writeThenHang) {
        await real.saveMany(docs, at);
        return new Promise<never>(() => undefined);
      }
      if (state.down) throw new Error('Connection terminated unexpectedly');
      return real.saveMany(docs, at);
    },
  };
  let release!: () => void;
  const hold = () => (state.gate = new Promise((resolve) => (release = resolve)));
  return { records, state, real, hold, release: () => release() };
}

/** The live store as an instance sees it, counting its reads of one key (to see a command waiting). */
function countingReads(live: LiveStore, key: string): { live: LiveStore; reads: () => number } {
  let reads = 0;
  const counted = new Proxy(live, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (name === 'get') return (k: string) => ((reads += k === key ? 1 : 0), target.get(k));
      if (name === 'getMany') return (keys: string[]) => ((reads += keys.includes(key) ? 1 : 0), target.getMany(keys));
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { live: counted, reads: () => reads };
}

const pendingIn = (w: EngineWorld, code: string) => async () => (await w.live.get<Record<string, unknown>>(lobbyKey(code)))?.value[PENDING_PART] !== undefined;

/** A gathered ultiduo with room for one more, and a newcomer to join it. */
async function lobbyWithRoom(w: EngineWorld) {
  const g = await gathered(w, 'ultiduo');
  const [newcomer] = await w.users(1);
  // Room for the newcomer: the lobby is full as gathered.
  await w.engine.command(g.code, { type: 'leave' }, callerOf(g.users[3]));
  return { ...g, newcomer };
}

/** A new user's lobby creation by another instance, left pending: its Postgres write waits for `flaky.release()`. */
async function pendingCreation(w: EngineWorld) {
  const [creator] = await w.users(1);
  const flaky = flakyRecords(w);
  flaky.hold();
  const creation = w.peer({ records: flaky.records }).create(callerOf(creator), {});
  creation.catch(() => undefined);
  await poll(() => w.live.get(lobbyMemberKey(creator.id)), (entry) => entry !== null, { what: 'the creation is pending', everyMs: 1 });
  return { creator, flaky, creation };
}

/** Whether a lobby (a detail, whose pool is profiles, or a state, whose pool is ids) has the user in its pool. */
const inPool = (lobby: { pool: ReadonlyArray<{ id: number } | number> }, id: number) => lobby.pool.some((user) => (typeof user === 'number' ? user : user.id) === id);

describeEngine('durable lobby changes', (world) => {
  it('takes back a lobby whose creation Postgres did not write: the creator is in no lobby and can create one later', async () => {
    const w = world();
    const { records, state } = flakyRecords(w);
    const instance = w.peer({ records });
    const [host] = await w.users(1);
    await expect(instance.create(callerOf(host), {})).rejects.toThrow('Connection terminated');
    expect(await w.live.get(lobbyMemberKey(host.id))).toBeNull();
    expect(await instance.summaries()).toEqual([]);
    state.down = false;
    const { code } = await instance.create(callerOf(host), {});
    expect(await instance.lobbyOf(host.id)).toBe(code);
  });

  it('takes back a join Postgres did not write and never announces it to watchers', async () => {
    const w = world();
    const { code, newcomer } = await lobbyWithRoom(w);
    const before = await detailOf(w, code);
    await w.delivered();
    const announcedBefore = w.broadcast.updates.length;
    const { records } = flakyRecords(w);
    const instance = w.peer({ records });
    await expect(instance.command(code, { type: 'join' }, callerOf(newcomer))).rejects.toThrow('Connection terminated');
    // As it was, past the refused version (which Postgres may hold if only its answer was lost).
    expect(await detailOf(w, code)).toEqual({ ...before, version: before.version + 2 });
    expect(await w.live.get(lobbyMemberKey(newcomer.id))).toBeNull();
    await w.delivered();
    expect(w.broadcast.updates.slice(announcedBefore).filter((update) => update.code === code)).toEqual([]);
  });

  it('shows readers the lobby as it was while a join waits for Postgres', async () => {
    const w = world();
    const { code, newcomer } = await lobbyWithRoom(w);
    const before = await detailOf(w, code);
    const flaky = flakyRecords(w);
    flaky.hold();
    const join = w.peer({ records: flaky.records }).command(code, { type: 'join' }, callerOf(newcomer));
    join.catch(() => undefined);
    await poll(pendingIn(w, code), (pending) => pending, { what: 'the join is pending', everyMs: 1 });
    expect(await detailOf(w, code)).toEqual(before);
    expect((await w.engine.summaries()).find((summary) => summary.code === code)).toMatchObject({ code });
    flaky.release();
    await expect(join).rejects.toThrow('Connection terminated');
  });

  it('makes another instance\'s command wait for a pending join, which Postgres then refuses and is not in the lobby', async () => {
    const w = world();
    const { code, host, newcomer } = await lobbyWithRoom(w);
    const flaky = flakyRecords(w);
    flaky.hold();
    const join = w.peer({ records: flaky.records }).command(code, { type: 'join' }, callerOf(newcomer));
    const settled: string[] = [];
    join.catch(() => settled.push('join refused'));
    await poll(pendingIn(w, code), (pending) => pending, { what: 'the join is pending', everyMs: 1 });
    // Another instance votes on the lobby while the join's record write hangs: it waits, reading again.
    const other = countingReads(w.live, lobbyKey(code));
    const map = (await detailOf(w, code)).map_pool[0];
    const vote = w.peer({ live: other.live }).command(code, { type: 'vote-map', map }, callerOf(host));
    vote.then(() => settled.push('vote answered'), () => settled.push('vote refused'));
    await poll(other.reads, (reads) => reads >= 3, { what: 'the vote waits on the pending join', everyMs: 5 });
    expect(settled).toEqual([]);
    flaky.release();
    await expect(join).rejects.toThrow('Connection terminated');
    const voted = await vote;
    expect(settled).toEqual(['join refused', 'vote answered']);
    expect(inPool(voted, newcomer.id)).toBe(false);
    const after = await detailOf(w, code);
    expect(inPool(after, newcomer.id)).toBe(false);
    expect(after.version).toBe(voted.version);
    expect(await w.live.get(lobbyMemberKey(newcomer.id))).toBeNull();
    await w.delivered();
    expect(w.broadcast.updates.filter((update) => update.code === code && inPool(update.lobby, newcomer.id))).toEqual([]);
  });

  it('answers chat about a lobby whose creation waits for Postgres as about no lobby', async () => {
    const w = world();
    const { creator, flaky, creation } = await pendingCreation(w);
    const code = (await w.live.get<string>(lobbyMemberKey(creator.id)))!.value;
    await expect(w.engine.chat(code, callerOf(creator), 'anyone here?')).rejects.toMatchObject({ kind: 'not_found' });
    flaky.release();
    await expect(creation).rejects.toThrow('Connection terminated');
  });

  it('takes chat in a lobby whose cancel waits for Postgres, as in the open lobby readers still see', async () => {
    const w = world();
    const { code, host } = await lobbyWithRoom(w);
    const flaky = flakyRecords(w);
    flaky.hold();
    const cancel = w.peer({ records: flaky.records }).command(code, { type: 'cancel' }, callerOf(host));
    cancel.catch(() => undefined);
    await poll(pendingIn(w, code), (pending) => pending, { what: 'the cancel is pending', everyMs: 1 });
    expect((await w.engine.chat(code, callerOf(host), 'still here')).message).toBe('still here');
    flaky.release();
    await expect(cancel).rejects.toThrow('Connection terminated');
  });

  it('counts a creation still waiting for Postgres as the creator\'s lobby: a join elsewhere meanwhile is refused', async () => {
    const w = world();
    const { code } = await lobbyWithRoom(w);
    const { creator, flaky, creation } = await pendingCreation(w);
    await expect(w.engine.command(code, { type: 'join' }, callerOf(creator))).rejects.toMatchObject({ kind: 'conflict' });
    flaky.release();
    await expect(creation).rejects.toThrow('Connection terminated');
    expect(await w.engine.lobbyOf(creator.id)).toBeNull();
  });

  it('takes back a pending join whose instance died before Postgres held it, once its lease ends', async () => {
    const w = world();
    const { code, host, newcomer } = await lobbyWithRoom(w);
    const flaky = flakyRecords(w);
    flaky.hold();
    // The instance's save never answers: as if it died between its commit and its record write.
    w.peer({ records: flaky.records, durableLeaseMs: 300 }).command(code, { type: 'join' }, callerOf(newcomer)).catch(() => undefined);
    await poll(pendingIn(w, code), (pending) => pending, { what: 'the join is pending', everyMs: 1 });
    const map = (await detailOf(w, code)).map_pool[0];
    const voted = await w.engine.command(code, { type: 'vote-map', map }, callerOf(host));
    expect(inPool(voted, newcomer.id)).toBe(false);
    expect(await pendingIn(w, code)()).toBe(false);
    expect(await w.live.get(lobbyMemberKey(newcomer.id))).toBeNull();
    expect(await w.engine.lobbyOf(newcomer.id)).toBeNull();
  });

  it('keeps a pending join whose instance died after Postgres held it, once its lease ends, and announces it', async () => {
    const w = world();
    const { code, host, newcomer } = await lobbyWithRoom(w);
    const flaky = flakyRecords(w);
    flaky.state.writeThenHang = true;
    w.peer({ records: flaky.records, durableLeaseMs: 300 }).command(code, { type: 'join' }, callerOf(newcomer)).catch(() => undefined);
    await poll(() => flaky.real.load(code), (record) => (record?.snapshot as { pool: number[] }).pool.includes(newcomer.id), { what: 'the record holds the join' });
    const map = (await detailOf(w, code)).map_pool[0];
    const voted = await w.engine.command(code, { type: 'vote-map', map }, callerOf(host));
    expect(inPool(voted, newcomer.id)).toBe(true);
    expect(await w.engine.lobbyOf(newcomer.id)).toBe(code);
    await w.delivered();
    expect(w.broadcast.updates.some((update) => update.code === code && inPool(update.lobby, newcomer.id))).toBe(true);
  });
});
