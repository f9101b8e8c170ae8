import { describe, expect, it } from 'vitest';
import { nextDeadline } from '../../../src/domain/lobby/deadlines';
import { settle } from '../../../src/domain/lobby/settle';
import type { LobbyState } from '../../../src/domain/lobby/lobby-state';
import {
  BLU_CAP, draftingLobby, events, expectRefused, gatheringLobby, HOST, liveLobby, POOLED, readyCheckLobby, RED_CAP,
  run, SEATED, seatedOn, T0,
} from './lobby-fixtures';

const everyone = (s: LobbyState) => [...seatedOn(s, 'red'), ...seatedOn(s, 'blu')];
const readyAll = (s: LobbyState, ids: number[], now: number) => ids.reduce((acc, id) => run(acc, { type: 'ready' }, id, now), s);

describe('ready', () => {
  it('raises the caller\'s flag for 30 s', () => {
    const s = run(readyCheckLobby(), { type: 'ready' }, SEATED, T0 + 1_000);
    expect(s.teams.red[0].readyUntil).toBe(T0 + 31_000);
  });

  it('is allowed during the draft', () => {
    expect(run(draftingLobby(), { type: 'ready' }, SEATED, T0 + 1_000).teams.red[0].readyUntil).toBe(T0 + 31_000);
  });

  it('again later renews the flag', () => {
    let s = run(readyCheckLobby(), { type: 'ready' }, SEATED, T0);
    s = run(s, { type: 'ready' }, SEATED, T0 + 10_000);
    expect(s.teams.red[0].readyUntil).toBe(T0 + 40_000);
  });

  it('again at the same instant succeeds with no change', () => {
    const s = run(readyCheckLobby(), { type: 'ready' }, SEATED, T0);
    expect(run(s, { type: 'ready' }, SEATED, T0)).toBe(s);
  });

  it('by a free agent is refused as not in a slot', () => {
    expectRefused(draftingLobby(), { type: 'ready' }, POOLED, 'forbidden', /not in a slot/);
  });

  it('before the draft is a conflict', () => {
    expectRefused(gatheringLobby(), { type: 'ready' }, SEATED, 'conflict');
  });

  it('from the last unready player takes the lobby live', () => {
    const rc = readyCheckLobby();
    const s = readyAll(rc, everyone(rc), T0 + 5_000);
    expect(s.phase).toBe('live');
    expect(s.startedAt).toBe(T0 + 5_000);
    expect(s.readyCheckDeadline).toBeNull();
  });

  it('does not go live while some flag has lapsed', () => {
    const rc = readyCheckLobby();
    const [first, ...rest] = everyone(rc);
    let s = run(rc, { type: 'ready' }, first, T0);
    s = readyAll(s, rest, T0 + 30_000);
    expect(s.phase).toBe('ready_check');
  });

  it('going live announces the phase change', () => {
    const rc = readyCheckLobby();
    const [last, ...rest] = everyone(rc);
    const s = readyAll(rc, rest, T0);
    expect(events(s, { type: 'ready' }, last, T0)).toEqual([{ type: 'phase_changed', from: 'ready_check', to: 'live' }]);
  });
});

describe('keep-ready', () => {
  it('renews a live flag for another 30 s', () => {
    let s = run(readyCheckLobby(), { type: 'ready' }, SEATED, T0);
    s = run(s, { type: 'keep-ready' }, SEATED, T0 + 20_000);
    expect(s.teams.red[0].readyUntil).toBe(T0 + 50_000);
  });

  it('with a lapsed flag is refused as ready flag expired', () => {
    const s = run(readyCheckLobby(), { type: 'ready' }, SEATED, T0);
    expectRefused(s, { type: 'keep-ready' }, SEATED, 'conflict', /ready flag expired/, T0 + 30_000);
  });

  it('without ever being ready is refused as ready flag expired', () => {
    expectRefused(readyCheckLobby(), { type: 'keep-ready' }, SEATED, 'conflict', /ready flag expired/);
  });

  it('by a free agent is forbidden', () => {
    expectRefused(draftingLobby(), { type: 'keep-ready' }, POOLED, 'forbidden');
  });

  it('renewing one flag does not take the lobby live while others are unready', () => {
    let s = run(readyCheckLobby(), { type: 'ready' }, SEATED, T0);
    s = run(s, { type: 'keep-ready' }, SEATED, T0 + 10_000);
    expect(s.phase).toBe('ready_check');
  });
});

describe('force-start', () => {
  it('takes a full lobby live at once', () => {
    const s = run(readyCheckLobby(), { type: 'force-start' }, HOST, T0 + 2_000);
    expect(s.phase).toBe('live');
    expect(s.startedAt).toBe(T0 + 2_000);
    expect(s.readyCheckDeadline).toBeNull();
  });

  it('with empty slots is a conflict', () => {
    expectRefused(draftingLobby(), { type: 'force-start' }, HOST, 'conflict', /not full/);
  });

  it('is for the host only', () => {
    expectRefused(readyCheckLobby(), { type: 'force-start' }, RED_CAP, 'forbidden');
  });

  it('once live is a conflict', () => {
    expectRefused(liveLobby(), { type: 'force-start' }, HOST, 'conflict');
  });
});

describe('ready check timeout (settle)', () => {
  const timedOut = () => {
    const rc = readyCheckLobby();
    return { rc, s: run(rc, { type: 'ready' }, RED_CAP, T0 + 50_000) };
  };

  it('does nothing before the deadline', () => {
    const { s } = timedOut();
    expect(settle(s, T0 + 59_999)).toBe(s);
  });

  it('at the deadline sends unready players back to the pool', () => {
    const { s } = timedOut();
    const after = settle(s, T0 + 60_000);
    expect(everyone(after)).toEqual([RED_CAP]);
    expect(after.pool).toContain(BLU_CAP);
    expect(after.pool).toContain(SEATED);
  });

  it('at the deadline keeps ready players seated, with their flags cleared', () => {
    const after = settle(timedOut().s, T0 + 60_000);
    expect(after.teams.red.find((x) => x.userId === RED_CAP)!.readyUntil).toBeNull();
  });

  it('at the deadline returns the lobby to drafting with no deadline', () => {
    const after = settle(timedOut().s, T0 + 60_000);
    expect(after.phase).toBe('drafting');
    expect(after.readyCheckDeadline).toBeNull();
  });

  it('clears the captaincy of an unready captain', () => {
    expect(settle(timedOut().s, T0 + 60_000).captains).toEqual({ red: RED_CAP, blu: null });
  });

  it('removes the draft history of players it sends back', () => {
    const after = settle(timedOut().s, T0 + 60_000);
    expect(after.picks).toEqual([]);
  });

  it('returns players red first, by slot index, after the existing free agents', () => {
    const { rc, s } = timedOut();
    const after = settle(s, T0 + 60_000);
    const returned = [...rc.teams.red, ...rc.teams.blu].map((x) => x.userId!).filter((id) => id !== RED_CAP);
    expect(after.pool).toEqual([...rc.pool, ...returned]);
  });

  it('treats a flag that lapsed before the deadline as unready', () => {
    const rc = readyCheckLobby();
    const s = run(rc, { type: 'ready' }, SEATED, T0 + 1_000);
    expect(settle(s, T0 + 60_000).pool).toContain(SEATED);
  });

  it('is idempotent', () => {
    const once = settle(timedOut().s, T0 + 60_000);
    expect(settle(once, T0 + 70_000)).toBe(once);
  });

  it('does not change its input', () => {
    const { s } = timedOut();
    const copy = structuredClone(s);
    settle(s, T0 + 60_000);
    expect(s).toEqual(copy);
  });

  it('runs before every command, as part of the same change', () => {
    const { s } = timedOut();
    const after = run(s, { type: 'vote-map', map: 'cp_sunshine' }, POOLED, T0 + 61_000);
    expect(after.phase).toBe('drafting');
    expect(after.version).toBe(s.version + 1);
  });

  it('lets a command see the settled lobby (a returned player can be picked again)', () => {
    const s = run(timedOut().s, { type: 'ready' }, BLU_CAP, T0 + 50_000);
    const after = run(s, { type: 'pick', userId: SEATED }, RED_CAP, T0 + 61_000);
    expect(seatedOn(after, 'red')).toContain(SEATED);
  });

  it('is what a tick applies, bumping the version once', () => {
    const { s } = timedOut();
    const after = run(s, { type: 'tick' }, HOST, T0 + 60_000);
    expect(after.phase).toBe('drafting');
    expect(after.version).toBe(s.version + 1);
  });

  it('a tick with nothing due returns the very same state', () => {
    const { s } = timedOut();
    expect(run(s, { type: 'tick' }, HOST, T0 + 55_000)).toBe(s);
  });

  it('announces the return to drafting and the players who left their slots stay members', () => {
    const { s } = timedOut();
    expect(events(s, { type: 'tick' }, HOST, T0 + 60_000)).toEqual([{ type: 'phase_changed', from: 'ready_check', to: 'drafting' }]);
  });
});

describe('next deadline', () => {
  it('is the ready check deadline when no flag lapses sooner', () => {
    expect(nextDeadline(readyCheckLobby(), T0)).toBe(T0 + 60_000);
  });

  it('is the earliest flag to lapse when it comes before the deadline', () => {
    const s = run(readyCheckLobby(), { type: 'ready' }, SEATED, T0 + 5_000);
    expect(nextDeadline(s, T0 + 5_000)).toBe(T0 + 35_000);
  });

  it('ignores flags that already lapsed', () => {
    const s = run(readyCheckLobby(), { type: 'ready' }, SEATED, T0);
    expect(nextDeadline(s, T0 + 30_000)).toBe(T0 + 60_000);
  });

  it('is the next flag to lapse during the draft', () => {
    expect(nextDeadline(run(draftingLobby(), { type: 'ready' }, SEATED, T0), T0)).toBe(T0 + 30_000);
  });

  it('is none during the draft with no flags up', () => {
    expect(nextDeadline(draftingLobby(), T0)).toBeNull();
  });

  it('is none while gathering', () => {
    expect(nextDeadline(gatheringLobby(), T0)).toBeNull();
  });

  it('is none once live', () => {
    expect(nextDeadline(liveLobby(), T0)).toBeNull();
  });

  it('is the past deadline itself when the lobby has not been settled yet (tick now)', () => {
    expect(nextDeadline(readyCheckLobby(), T0 + 90_000)).toBe(T0 + 60_000);
  });
});
