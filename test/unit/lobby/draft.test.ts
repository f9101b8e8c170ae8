import { describe, expect, it } from 'vitest';
import { draftTurn } from '../../../src/domain/lobby/draft-turn';
import { teamSize } from '../../../src/domain/lobby/formats';
import {
  BLU_CAP, draftingLobby, events, expectRefused, gatheringLobby, HOST, joinAll, newLobby, OUTSIDER, POOLED,
  readyCheckLobby, RED_CAP, run, SEATED, seatedOn, T0,
} from './lobby-fixtures';

/** Two captains, nobody else seated; free agents the host and 10..15, as many as the format admits. */
function freshDraft(format: '6v6' | 'ultiduo' | '4v4' = '6v6') {
  let s = joinAll(newLobby({ format }), [RED_CAP, BLU_CAP, 10, 11, 12, 13, 14, 15].slice(0, 2 * teamSize(format) - 1));
  s = run(s, { type: 'set-captain', userId: RED_CAP, team: 'red' }, HOST);
  s = run(s, { type: 'set-captain', userId: BLU_CAP, team: 'blu' }, HOST);
  return run(s, { type: 'start-draft' }, HOST);
}

describe('draft turn', () => {
  it('belongs to red when nobody has picked yet and the teams are even', () => {
    expect(draftTurn(freshDraft())).toBe('red');
  });

  it('belongs to the team with fewer players', () => {
    expect(draftTurn(run(freshDraft(), { type: 'pick', userId: 10 }, RED_CAP))).toBe('blu');
  });

  it('on a tie belongs to the team that did not make the last pick', () => {
    let s = run(freshDraft(), { type: 'pick', userId: 10 }, RED_CAP);
    s = run(s, { type: 'pick', userId: 11 }, BLU_CAP);
    expect(draftTurn(s)).toBe('red');
  });

  it('alternates between the teams when the captains pick in turn', () => {
    let s = freshDraft();
    const turns: string[] = [];
    for (const id of [10, 11, 12, 13, 14, 15]) {
      const turn = draftTurn(s)!;
      turns.push(turn);
      s = run(s, { type: 'pick', userId: id }, turn === 'red' ? RED_CAP : BLU_CAP);
    }
    expect(turns).toEqual(['red', 'blu', 'red', 'blu', 'red', 'blu']);
  });

  it('goes to the team a captain just dropped a player from', () => {
    let s = run(freshDraft(), { type: 'pick', userId: 10 }, RED_CAP);
    s = run(s, { type: 'pick', userId: 11 }, BLU_CAP);
    s = run(s, { type: 'drop-to-pool', userId: 11 }, BLU_CAP);
    expect(draftTurn(s)).toBe('blu');
  });

  it('is nobody outside drafting', () => {
    expect(draftTurn(gatheringLobby())).toBeNull();
    expect(draftTurn(readyCheckLobby())).toBeNull();
  });
});

describe('pick', () => {
  it('seats the picked free agent in the first free slot of the picking team', () => {
    const s = run(freshDraft(), { type: 'pick', userId: 10 }, RED_CAP);
    expect(s.teams.red[1].userId).toBe(10);
    expect(s.pool).not.toContain(10);
  });

  it('records the pick in the draft history', () => {
    const s = run(freshDraft(), { type: 'pick', userId: 10 }, RED_CAP);
    expect(s.picks).toEqual([{ team: 'red', userId: 10, by: RED_CAP }]);
  });

  it('by a captain out of turn is refused as not your turn', () => {
    expectRefused(freshDraft(), { type: 'pick', userId: 10 }, BLU_CAP, 'conflict', /not your turn/);
  });

  it('by someone who is not a captain is forbidden', () => {
    expectRefused(freshDraft(), { type: 'pick', userId: 10 }, 11, 'forbidden');
  });

  it('of a player already drafted is a conflict', () => {
    expectRefused(draftingLobby(), { type: 'pick', userId: 10 }, RED_CAP, 'conflict', /already drafted/);
  });

  it('of someone not in the lobby is 404', () => {
    expectRefused(freshDraft(), { type: 'pick', userId: OUTSIDER }, RED_CAP, 'not_found');
  });

  it('before the draft starts is a conflict', () => {
    expectRefused(gatheringLobby(), { type: 'pick', userId: POOLED }, RED_CAP, 'conflict');
  });

  it('that fills both teams starts the ready check with a 60 s deadline', () => {
    let s = run(freshDraft('ultiduo'), { type: 'pick', userId: 10 }, RED_CAP, T0);
    s = run(s, { type: 'pick', userId: HOST }, BLU_CAP, T0 + 5_000);
    expect(s.pool).toEqual([]);
    expect(s.phase).toBe('ready_check');
    expect(s.readyCheckDeadline).toBe(T0 + 65_000);
  });

  it('that fills both teams announces the ready check', () => {
    const s = run(freshDraft('ultiduo'), { type: 'pick', userId: 10 }, RED_CAP);
    expect(events(s, { type: 'pick', userId: HOST }, BLU_CAP)).toEqual([
      { type: 'phase_changed', from: 'drafting', to: 'ready_check' },
      { type: 'ready_check_started', deadline: T0 + 60_000 },
    ]);
  });

  it('that fills both teams clears earlier ready flags', () => {
    let s = run(freshDraft('ultiduo'), { type: 'ready' }, RED_CAP);
    s = run(s, { type: 'pick', userId: 10 }, RED_CAP);
    s = run(s, { type: 'pick', userId: HOST }, BLU_CAP);
    expect(s.teams.red[0].readyUntil).toBeNull();
  });
});

describe('unpick', () => {
  it('returns the last pick to the end of the pool', () => {
    const s = run(draftingLobby(), { type: 'unpick', userId: 10 }, BLU_CAP);
    expect(s.pool[s.pool.length - 1]).toBe(10);
    expect(seatedOn(s, 'blu')).not.toContain(10);
  });

  it('removes the entry from the draft history', () => {
    expect(run(draftingLobby(), { type: 'unpick', userId: 10 }, BLU_CAP).picks).toEqual([]);
  });

  it('gives the turn back to the team that unpicked', () => {
    expect(draftTurn(run(draftingLobby(), { type: 'unpick', userId: 10 }, BLU_CAP))).toBe('blu');
  });

  it('of an earlier pick is refused', () => {
    let s = run(freshDraft(), { type: 'pick', userId: 10 }, RED_CAP);
    s = run(s, { type: 'pick', userId: 11 }, BLU_CAP);
    s = run(s, { type: 'pick', userId: 12 }, RED_CAP);
    expectRefused(s, { type: 'unpick', userId: 10 }, RED_CAP, 'conflict', /last pick/);
  });

  it("of the other captain's last pick is refused", () => {
    expectRefused(draftingLobby(), { type: 'unpick', userId: 10 }, RED_CAP, 'conflict', /last pick/);
  });

  it('with no pick made yet is refused', () => {
    expectRefused(freshDraft(), { type: 'unpick', userId: 10 }, RED_CAP, 'conflict', /last pick/);
  });

  it('by someone who is not a captain is forbidden', () => {
    expectRefused(draftingLobby(), { type: 'unpick', userId: 10 }, SEATED, 'forbidden');
  });

  it('after the teams filled is a conflict', () => {
    const s = readyCheckLobby();
    const last = s.picks[s.picks.length - 1];
    expectRefused(s, { type: 'unpick', userId: last.userId }, last.by, 'conflict');
  });
});

describe('drop-to-pool', () => {
  it('returns a drafted teammate to the end of the pool', () => {
    const s = run(draftingLobby(), { type: 'drop-to-pool', userId: 10 }, BLU_CAP);
    expect(s.pool[s.pool.length - 1]).toBe(10);
    expect(seatedOn(s, 'blu')).not.toContain(10);
  });

  it("removes the player's pick entry", () => {
    expect(run(draftingLobby(), { type: 'drop-to-pool', userId: 10 }, BLU_CAP).picks).toEqual([]);
  });

  it('of a player on the other team is refused as wrong team', () => {
    expectRefused(draftingLobby(), { type: 'drop-to-pool', userId: 10 }, RED_CAP, 'forbidden', /wrong team/);
  });

  it('of a free agent is a conflict', () => {
    expectRefused(draftingLobby(), { type: 'drop-to-pool', userId: POOLED }, RED_CAP, 'conflict');
  });

  it('of someone not in the lobby is 404', () => {
    expectRefused(draftingLobby(), { type: 'drop-to-pool', userId: OUTSIDER }, RED_CAP, 'not_found');
  });

  it('of oneself, a captain, is a conflict', () => {
    expectRefused(draftingLobby(), { type: 'drop-to-pool', userId: RED_CAP }, RED_CAP, 'conflict', /captain/);
  });

  it('by someone who is not a captain is forbidden', () => {
    expectRefused(draftingLobby(), { type: 'drop-to-pool', userId: 10 }, SEATED, 'forbidden');
  });

  it('during the ready check returns the lobby to drafting', () => {
    const s = run(readyCheckLobby(), { type: 'drop-to-pool', userId: SEATED }, RED_CAP);
    expect(s.phase).toBe('drafting');
    expect(s.readyCheckDeadline).toBeNull();
  });

  it('during the ready check gives the turn to the team that dropped', () => {
    expect(draftTurn(run(readyCheckLobby(), { type: 'drop-to-pool', userId: SEATED }, RED_CAP))).toBe('red');
  });

  it('before the draft is a conflict', () => {
    expectRefused(gatheringLobby(), { type: 'drop-to-pool', userId: SEATED }, RED_CAP, 'conflict');
  });
});
