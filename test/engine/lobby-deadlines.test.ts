import { expect, it } from 'vitest';
import { startDeadlineWorker } from '../../src/engine/deadline-worker';
import { LOBBY_DEADLINES } from '../../src/engine/live-keys';
import type { LobbyEngine } from '../../src/engine/lobby-engine';
import { callerOf, describeEngine, type EngineWorld } from './engine-harness';
import { allReady, detailOf, drafted, gathered, seatedIds } from './lobby-scenario';

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

describeEngine('lobby deadlines', (world) => {
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
    const deadline = Date.now() + 3_000;
    while ((await detailOf(w, g.code)).phase !== 'drafting' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await worker.stop();
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
