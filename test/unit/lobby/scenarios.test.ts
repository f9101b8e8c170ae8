import { describe, expect, it } from 'vitest';
import { createLobby } from '../../../src/domain/lobby/create-lobby';
import { draftTurn } from '../../../src/domain/lobby/draft-turn';
import { nextDeadline } from '../../../src/domain/lobby/deadlines';
import { openMembers } from '../../../src/domain/lobby/lobby-membership';
import { applyLobbyCommand } from '../../../src/domain/lobby/lobby-rules';
import type { LobbyState } from '../../../src/domain/lobby/lobby-state';
import { lobbyDetail } from '../../../src/domain/lobby/lobby-view';
import { actor, attempt, profile, run, seatedOn, T0 } from './lobby-fixtures';

const seconds = (n: number) => T0 + n * 1_000;
const everyone = (s: LobbyState) => [...seatedOn(s, 'red'), ...seatedOn(s, 'blu')];
const captainOnTurn = (s: LobbyState) => s.captains[draftTurn(s)!]!;

function gather(format: '6v6' | '9v9', players: number) {
  const created = createLobby({ code: 'MIX1', format }, actor(100, { profile: profile(100, 1000) }), T0);
  if (!created.ok) throw new Error(created.error.message);
  let s = created.state;
  // Ratings rise with the id so the automatic captains are the two best: the last two to join.
  for (let id = 101; id < 100 + players; id++) {
    s = run(s, { type: 'join' }, actor(id, { profile: profile(id, 1000 + id) }), seconds(1));
  }
  return s;
}

describe('a full 6v6', () => {
  it('goes from creation through a draft with an unpick, a ready check with a lapsed flag, live play and a report', () => {
    let s = gather('6v6', 12);
    expect(s.pool).toHaveLength(12);
    expect(attempt(s, { type: 'join' }, actor(200), seconds(1))).toMatchObject({ ok: false, error: { kind: 'conflict', message: 'lobby is full' } });
    s = run(s, { type: 'vote-map', map: 'cp_sunshine' }, 101, seconds(2));
    s = run(s, { type: 'vote-map', map: 'cp_sunshine' }, 102, seconds(2));

    s = run(s, { type: 'start-draft' }, 100, seconds(3));
    expect(s.phase).toBe('drafting');
    expect(s.captains).toEqual({ red: 111, blu: 110 });

    // Red picks, thinks better of it, and picks someone else.
    s = run(s, { type: 'pick', userId: 101 }, 111, seconds(4));
    s = run(s, { type: 'unpick', userId: 101 }, 111, seconds(5));
    expect(s.pool[s.pool.length - 1]).toBe(101);
    expect(draftTurn(s)).toBe('red');
    s = run(s, { type: 'pick', userId: 102 }, 111, seconds(6));

    // The last free agent picked is the last one who was in the pool: a full lobby's draft ends with every slot filled.
    while (s.phase === 'drafting') s = run(s, { type: 'pick', userId: s.pool[0] }, captainOnTurn(s), seconds(7));
    expect(s.phase).toBe('ready_check');
    expect(s.readyCheckDeadline).toBe(seconds(67));
    expect(everyone(s)).toHaveLength(12);
    expect(s.pool).toEqual([]);

    // One player readies too early and lets the flag lapse; keep-ready is then refused, ready works again.
    const [early, ...rest] = everyone(s);
    s = run(s, { type: 'ready' }, early, seconds(8));
    expect(lobbyDetail(s, seconds(38)).teams.red.some((slot) => slot.ready)).toBe(false);
    expect(attempt(s, { type: 'keep-ready' }, early, seconds(38))).toMatchObject({ ok: false, error: { kind: 'conflict' } });
    for (const id of rest) s = run(s, { type: 'ready' }, id, seconds(40));
    expect(s.phase).toBe('ready_check');
    s = run(s, { type: 'ready' }, early, seconds(41));
    expect(s.phase).toBe('live');
    expect(s.startedAt).toBe(seconds(41));
    expect(nextDeadline(s, seconds(41))).toBeNull();

    s = run(s, { type: 'report', scoreRed: 5, scoreBlu: 4 }, 110, seconds(1_800));
    expect([s.phase, s.scoreRed, s.scoreBlu, s.endedAt]).toEqual(['ended', 5, 4, seconds(1_800)]);
    expect(openMembers(s)).toEqual([]);
    s = run(s, { type: 'record-match', matchId: 77 }, 100, seconds(1_801));
    expect(lobbyDetail(s, seconds(1_801))).toMatchObject({ phase: 'ended', match_id: 77, score_red: 5, score_blu: 4, votes: { cp_sunshine: 2 } });
  });
});

describe('a full 9v9', () => {
  it('drafts eighteen players into one of each class and goes live when all are ready', () => {
    let s = gather('9v9', 18);
    s = run(s, { type: 'set-captain', userId: 101, team: 'blu' }, 100, seconds(2));
    s = run(s, { type: 'start-draft' }, 100, seconds(3));
    expect(s.captains).toEqual({ red: 117, blu: 101 });
    while (s.phase === 'drafting') s = run(s, { type: 'pick', userId: s.pool[0] }, captainOnTurn(s), seconds(4));
    expect(s.phase).toBe('ready_check');
    expect(s.pool).toEqual([]);
    for (const team of ['red', 'blu'] as const) {
      expect(s.teams[team].map((slot) => slot.class)).toEqual(['scout', 'soldier', 'pyro', 'demoman', 'heavy', 'engineer', 'medic', 'sniper', 'spy']);
      expect(seatedOn(s, team)).toHaveLength(9);
    }
    for (const id of everyone(s)) s = run(s, { type: 'ready' }, id, seconds(10));
    expect(s.phase).toBe('live');
    s = run(s, { type: 'report', scoreRed: 2, scoreBlu: 3 }, 100, seconds(2_000));
    expect(s.phase).toBe('ended');
  });
});

describe('a ready check that times out', () => {
  it('returns the unready players to the pool and lets the draft refill the teams', () => {
    let s = gather('6v6', 12);
    s = run(s, { type: 'start-draft' }, 100, seconds(2));
    while (s.phase === 'drafting') s = run(s, { type: 'pick', userId: s.pool[0] }, captainOnTurn(s), seconds(3));
    const seated = everyone(s);
    const slow = seated.filter((id) => id !== s.captains.red && id !== s.captains.blu).slice(0, 3);
    for (const id of seated.filter((x) => !slow.includes(x))) s = run(s, { type: 'ready' }, id, seconds(40));
    expect(nextDeadline(s, seconds(40))).toBe(seconds(63));

    const out = applyLobbyCommand(s, { type: 'tick' }, actor(0), seconds(63));
    if (!out.ok) throw new Error(out.error.message);
    s = out.state;
    expect(s.phase).toBe('drafting');
    expect(s.pool.slice(-3).sort()).toEqual([...slow].sort());
    expect(everyone(s)).toHaveLength(9);
    expect(openMembers(s)).toHaveLength(12);

    while (s.phase === 'drafting') s = run(s, { type: 'pick', userId: s.pool[0] }, captainOnTurn(s), seconds(70));
    expect(s.phase).toBe('ready_check');
    expect(s.pool).toEqual([]);
    expect(s.readyCheckDeadline).toBe(seconds(130));
    s = run(s, { type: 'force-start' }, 100, seconds(71));
    expect(s.phase).toBe('live');
  });
});

describe('a draft that starts short', () => {
  it('drafts everyone there, takes latecomers into the pool, and ends full with the pool empty', () => {
    let s = gather('6v6', 6);
    s = run(s, { type: 'start-draft' }, 100, seconds(2));
    while (s.pool.length > 0) s = run(s, { type: 'pick', userId: s.pool[0] }, captainOnTurn(s), seconds(3));
    expect(s.phase).toBe('drafting');
    expect(everyone(s)).toHaveLength(6);

    for (let id = 200; id < 206; id++) s = run(s, { type: 'join' }, actor(id), seconds(4));
    expect(s.pool).toEqual([200, 201, 202, 203, 204, 205]);
    expect(attempt(s, { type: 'join' }, actor(206), seconds(4))).toMatchObject({ ok: false, error: { kind: 'conflict' } });

    while (s.phase === 'drafting') s = run(s, { type: 'pick', userId: s.pool[0] }, captainOnTurn(s), seconds(5));
    expect(s.phase).toBe('ready_check');
    expect(everyone(s)).toHaveLength(12);
    expect(s.pool).toEqual([]);
  });
});
