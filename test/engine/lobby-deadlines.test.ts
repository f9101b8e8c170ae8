import { expect, it } from 'vitest';
import { nextDeadline, READY_FLAG_MS, type LobbyState } from '../../src/domain/lobby';
import { startDeadlineWorker } from '../../src/engine/deadline-worker';
import { LOBBY_DEADLINES, lobbyKey } from '../../src/engine/live-keys';
import type { LobbyEngine } from '../../src/engine/lobby-engine';
import type { LiveStore } from '../../src/live/live-store';
import { callerOf, describeEngine, type EngineWorld } from './engine-harness';
import { allReady, detailOf, drafted, gathered, seatedIds } from './lobby-scenario';
import { poll } from '../support/poll';

const workerFor = (w: EngineWorld, engine: LobbyEngine = w.engine, intervalMs = 60_000) =>
  startDeadlineWorker({
    live: w.live,
    clock: w.clock.read,
    intervalMs,
    queues: [{ queue: LOBBY_DEADLINES, run: (code) => engine.tick(code) }],
    onError: (error) => {
      throw error;
    },
  });

async function inReadyCheck(w: EngineWorld) {
  const g = await gathered(w, 'ultiduo');
  const lobby = await drafted(w, g);
  expect(lobby.phase).toBe('ready_check');
  return { ...g, lobby };
}

/** The live store as an engine sees it, each call passed through `around` (which makes it). */
function intercepted(live: LiveStore, around: (method: string, call: () => Promise<unknown>) => Promise<unknown>): LiveStore {
  return new Proxy(live, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => around(String(property), () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    },
  });
}

/**
 * An instance that stalls right after its first write: every later call waits for `release`.
 * `written` resolves once that write is in.
 */
function stalledAfterWrite(live: LiveStore) {
  let wrote!: () => void;
  let release!: () => void;
  const written = new Promise<void>((resolve) => (wrote = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let stalled = false;
  const store = intercepted(live, async (method, call) => {
    if (stalled) await released;
    const result = await call();
    if (method === 'commit') {
      stalled = true;
      wrote();
    }
    return result;
  });
  return { live: store, written, release };
}

/** True when the lobby's entry in the deadline queue is due exactly at `dueAt` (claiming it). */
async function queuedAt(w: EngineWorld, code: string, dueAt: number): Promise<boolean> {
  const early = await w.live.claimDue(LOBBY_DEADLINES, dueAt - 1, 10);
  const due = await w.live.claimDue(LOBBY_DEADLINES, dueAt, 10);
  return early.length === 0 && due.length === 1 && due[0] === code;
}

/** A ready check with the host's flag up since now, its earliest deadline. */
async function hostReady(w: EngineWorld) {
  const g = await inReadyCheck(w);
  await w.engine.command(g.code, { type: 'ready' }, callerOf(g.host));
  return g;
}

/** As hostReady, and a second seated player's flag up a second later: the next deadline after the host's. */
async function twoReady(w: EngineWorld) {
  const g = await hostReady(w);
  const other = g.users.find((u) => u.id === seatedIds(g.lobby).find((id) => id !== g.host.id))!;
  w.clock.advance(1_000);
  await w.engine.command(g.code, { type: 'ready' }, callerOf(other));
  return { ...g, other };
}

describeEngine('lobby deadlines', (world) => {
  it('has the deadline a keep-ready moved in the queue by the time the command answers', async () => {
    const w = world();
    const g = await hostReady(w);
    w.clock.advance(10_000);
    await w.engine.command(g.code, { type: 'keep-ready' }, callerOf(g.host));
    expect(await queuedAt(w, g.code, w.clock.now + READY_FLAG_MS)).toBe(true);
  });

  it('costs a keep-ready that moves the deadline one read and one commit, which sets the deadline', async () => {
    const w = world();
    const g = await hostReady(w);
    w.clock.advance(10_000);
    const calls: string[] = [];
    const live = intercepted(w.live, (method, call) => (calls.push(method), call()));
    await w.makeEngine({ live }).command(g.code, { type: 'keep-ready' }, callerOf(g.host));
    expect(calls).toEqual(['getMany', 'commit']);
  });

  it('costs the next keep-ready one commit and nothing else: the engine decides on the lobby it last wrote', async () => {
    const w = world();
    const g = await hostReady(w);
    const calls: string[] = [];
    const engine = w.makeEngine({ live: intercepted(w.live, (method, call) => (calls.push(method), call())) });
    w.clock.advance(10_000);
    await engine.command(g.code, { type: 'keep-ready' }, callerOf(g.host));
    calls.length = 0;
    w.clock.advance(10_000);
    await engine.command(g.code, { type: 'keep-ready' }, callerOf(g.host));
    expect(calls).toEqual(['commit']);
    expect(await queuedAt(w, g.code, w.clock.now + READY_FLAG_MS)).toBe(true);
  });

  it('leaves the newest state\'s deadline in the queue when an instance stalls after its commit and another commits after it', async () => {
    const w = world();
    const { other, ...g } = await twoReady(w);
    w.clock.advance(10_000);
    const stalled = stalledAfterWrite(w.live);
    // The host's renewal moves the deadline to the other flag; the other's renewal moves it again.
    const first = w.makeEngine({ live: stalled.live }).command(g.code, { type: 'keep-ready' }, callerOf(g.host));
    await stalled.written;
    w.clock.advance(1_000);
    await w.peer().command(g.code, { type: 'keep-ready' }, callerOf(other));
    stalled.release();
    await first;
    const newest = (await w.live.get<LobbyState>(lobbyKey(g.code)))!.value;
    expect(await queuedAt(w, g.code, nextDeadline(newest, w.clock.now)!)).toBe(true);
  });

  it('keeps the next flag\'s deadline in the queue when a tick clears the flag that was due', async () => {
    const w = world();
    const { other, ...g } = await twoReady(w);
    const worker = workerFor(w);
    w.clock.advance(READY_FLAG_MS - 1_000);
    expect(await worker.runOnce()).toBe(1);
    w.clock.advance(1_000);
    expect(await worker.runOnce()).toBe(1);
    await worker.stop();
    const lobby = await detailOf(w, g.code);
    expect([...lobby.teams.red, ...lobby.teams.blu].some((s) => s.ready)).toBe(false);
  });

  it('returns the unready to the pool and the lobby to drafting when the ready check times out', async () => {
    const w = world();
    const g = await gathered(w, '6v6');
    const lobby = await drafted(w, g);
    const captains = [lobby.captains.red!, lobby.captains.blu!];
    const unready = seatedIds(lobby).filter((id) => !captains.includes(id)).slice(0, 2);
    await allReady(w, g, unready);
    const worker = workerFor(w);
    for (const at of [25_000, 25_000]) {
      w.clock.advance(at);
      for (const id of seatedIds(lobby).filter((i) => !unready.includes(i))) {
        await w.engine.command(g.code, { type: 'keep-ready' }, callerOf(g.users.find((u) => u.id === id)!));
      }
      await worker.runOnce();
    }
    w.clock.advance(10_001);
    expect(await worker.runOnce()).toBe(1);
    await worker.stop();
    const after = await detailOf(w, g.code);
    expect(after.phase).toBe('drafting');
    expect(after.pool.map((u) => u.id).sort()).toEqual([...unready].sort());
    await w.delivered();
    expect(w.broadcast.updates.at(-1)?.lobby.phase).toBe('drafting');
  });

  it('pushes a ready flag going off to watchers as a change with the next version', async () => {
    const w = world();
    const g = await inReadyCheck(w);
    await w.engine.command(g.code, { type: 'ready' }, callerOf(g.host));
    const version = (await detailOf(w, g.code)).version;
    await w.delivered();
    const pushed = w.broadcast.updates.length;
    const worker = workerFor(w);
    w.clock.advance(30_000);
    expect(await worker.runOnce()).toBe(1);
    await worker.stop();
    await w.delivered();
    const update = w.broadcast.updates[pushed];
    expect(update.version).toBe(version + 1);
    expect((await detailOf(w, g.code)).version).toBe(version + 1);
    expect([...update.lobby.teams.red, ...update.lobby.teams.blu].every((s) => !s.ready)).toBe(true);
  });

  it('runs a due deadline once however many workers poll', async () => {
    const w = world();
    const g = await inReadyCheck(w);
    w.clock.advance(60_000);
    await w.delivered();
    const pushed = w.broadcast.updates.length;
    const workers = [workerFor(w), workerFor(w, w.peer()), workerFor(w, w.peer())];
    const claimed = await Promise.all(workers.map((x) => x.runOnce()));
    await Promise.all(workers.map((x) => x.stop()));
    await w.delivered();
    expect(claimed.reduce((a, b) => a + b)).toBe(1);
    expect(w.broadcast.updates.length - pushed).toBe(1);
    expect((await detailOf(w, g.code)).phase).toBe('drafting');
  });

  it('polls on its own until stopped', async () => {
    const w = world();
    const g = await inReadyCheck(w);
    const worker = workerFor(w, w.engine, 10);
    w.clock.advance(60_000);
    try {
      await poll(() => detailOf(w, g.code), (detail) => detail.phase === 'drafting', { withinMs: 3_000, everyMs: 10, what: 'the worker moving the lobby to drafting' });
    } finally {
      await worker.stop();
    }
    expect((await detailOf(w, g.code)).phase).toBe('drafting');
  });

  it('keeps the deadline in the durable queue, so a worker started later still runs it', async () => {
    const w = world();
    const g = await inReadyCheck(w);
    w.clock.advance(60_000);
    const later = workerFor(w, w.peer());
    expect(await later.runOnce()).toBe(1);
    await later.stop();
    expect((await detailOf(w, g.code)).phase).toBe('drafting');
  });
});
