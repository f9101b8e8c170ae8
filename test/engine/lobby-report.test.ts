import { expect, it } from 'vitest';
import { DomainError } from '../../src/domain/domain-error';
import { startDeadlineWorker } from '../../src/engine/deadline-worker';
import { UNRECORDED_MATCHES } from '../../src/engine/live-keys';
import { LobbyRecordRepository } from '../../src/db/lobby-record-repository';
import { UsersRepository } from '../../src/db/users-repository';
import { callerOf, describeEngine, type EngineWorld } from './engine-harness';
import { detailOf, live } from './lobby-scenario';

const matchRows = (w: EngineWorld, code: string) =>
  w.database.db.em().execute<{ id: number; map: string; score_red: number; score_blu: number; format: string }[]>(
    'select id, map, score_red, score_blu, format from matches where lobby_code = ?',
    [code],
  );

const failingRecorder = { recordMatch: async () => Promise.reject(new Error('database unreachable')) };

describeEngine('match report', (world) => {
  it('writes the match, its players and their new ratings, and stores the match id on the lobby', async () => {
    const w = world();
    const g = await live(w);
    const voter = callerOf(g.host);
    const map = g.lobby.map_pool[2];
    await w.engine.command(g.code, { type: 'vote-map', map }, voter).catch(() => undefined);
    const captain = g.users.find((u) => u.id === g.lobby.captains.red)!;
    const matchId = await w.engine.report(g.code, callerOf(captain), 5, 2);
    const [row] = await matchRows(w, g.code);
    expect(row).toMatchObject({ id: matchId, score_red: 5, score_blu: 2, format: '6v6' });
    const players = await w.database.db.em().execute('select user_id, team, class from match_players where match_id = ?', [matchId]);
    expect(players).toHaveLength(12);
    const red = await new UsersRepository(w.database.db).findById(captain.id);
    expect(red!.elo).toBeGreaterThan(captain.elo);
    const lobby = await detailOf(w, g.code);
    expect(lobby).toMatchObject({ phase: 'ended', match_id: matchId, score_red: 5, score_blu: 2 });
    expect(w.invalidated).toContain('matches');
  });

  it('records the map with the most votes, the first of the pool when nobody voted', async () => {
    const w = world();
    const g = await live(w);
    const matchId = await w.engine.report(g.code, callerOf(g.host), 1, 1);
    const [row] = await matchRows(w, g.code);
    expect(row).toMatchObject({ id: matchId, map: g.lobby.map_pool[0] });
  });

  it('refuses a second report with 409 and never writes a second match', async () => {
    const w = world();
    const g = await live(w);
    const reports = await Promise.allSettled([
      w.engine.report(g.code, callerOf(g.host), 3, 0),
      w.peer().report(g.code, callerOf(g.users.find((u) => u.id === g.lobby.captains.blu)!), 0, 3),
    ]);
    expect(reports.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = reports.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as DomainError).kind).toBe('conflict');
    expect(await matchRows(w, g.code)).toHaveLength(1);
  });

  it('refuses a report from a player who is neither captain nor host (403)', async () => {
    const w = world();
    const g = await live(w);
    const captains = [g.lobby.captains.red, g.lobby.captains.blu, g.host.id];
    const player = g.users.find((u) => !captains.includes(u.id))!;
    await expect(w.engine.report(g.code, callerOf(player), 1, 0)).rejects.toMatchObject({ kind: 'forbidden' });
  });

  it('writes the match later when the database failed at report time', async () => {
    const w = world();
    const g = await live(w);
    await expect(w.makeEngine({ matches: failingRecorder }).report(g.code, callerOf(g.host), 2, 1)).rejects.toThrow('unreachable');
    expect(await detailOf(w, g.code)).toMatchObject({ phase: 'ended', match_id: null });
    const worker = startDeadlineWorker({
      live: w.live,
      clock: w.clock.read,
      intervalMs: 60_000,
      queues: [{ queue: UNRECORDED_MATCHES, run: async (code) => void (await w.engine.recordMatch(code)) }],
      onError: () => undefined,
    });
    w.clock.advance(5_000);
    expect(await worker.runOnce()).toBe(1);
    await worker.stop();
    const [row] = await matchRows(w, g.code);
    expect((await detailOf(w, g.code)).match_id).toBe(row.id);
  });

  it('finishes at start-up a report the process died in the middle of', async () => {
    const w = world();
    const g = await live(w);
    // Died after ending the lobby, before saving its record or writing the match.
    const real = new LobbyRecordRepository(w.database.db);
    const dying = w.makeEngine({ matches: failingRecorder, records: { load: real.load.bind(real), loadOpen: real.loadOpen.bind(real), save: async () => true, saveMany: async () => [] } });
    await expect(dying.report(g.code, callerOf(g.host), 4, 4)).rejects.toThrow();
    await w.live.unschedule(UNRECORDED_MATCHES, g.code);
    expect((await real.load(g.code))?.phase).toBe('live');

    expect(await w.peer().recover()).toMatchObject({ recorded: 1 });
    const [row] = await matchRows(w, g.code);
    expect(row).toMatchObject({ score_red: 4, score_blu: 4 });
    expect((await detailOf(w, g.code)).match_id).toBe(row.id);
    expect((await real.load(g.code))?.phase).toBe('ended');
    expect(await w.peer().recover()).toMatchObject({ recorded: 0 });
  });
});
