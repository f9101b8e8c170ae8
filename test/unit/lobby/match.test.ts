import { describe, expect, it } from 'vitest';
import type { LobbyCommand } from '../../../src/domain/lobby/lobby-commands';
import { applyLobbyCommand } from '../../../src/domain/lobby/lobby-rules';
import {
  actor, BLU_CAP, cancelledLobby, endedLobby, events, expectRefused, gatheringLobby, HOST, liveLobby, OUTSIDER,
  POOLED, readyCheckLobby, RED_CAP, run, SEATED, T0,
} from './lobby-fixtures';

describe('report', () => {
  it('ends a live match with the scores', () => {
    const s = run(liveLobby(), { type: 'report', scoreRed: 5, scoreBlu: 3 }, RED_CAP, T0 + 1_800_000);
    expect([s.phase, s.scoreRed, s.scoreBlu, s.endedAt]).toEqual(['ended', 5, 3, T0 + 1_800_000]);
  });

  it('may come from the blu captain', () => {
    expect(run(liveLobby(), { type: 'report', scoreRed: 0, scoreBlu: 5 }, BLU_CAP).phase).toBe('ended');
  });

  it('may come from the host', () => {
    expect(run(liveLobby(), { type: 'report', scoreRed: 1, scoreBlu: 1 }, HOST).phase).toBe('ended');
  });

  it('from a plain player is forbidden', () => {
    expectRefused(liveLobby(), { type: 'report', scoreRed: 1, scoreBlu: 0 }, SEATED, 'forbidden');
  });

  it('a second time is refused as already reported', () => {
    expectRefused(endedLobby(), { type: 'report', scoreRed: 1, scoreBlu: 0 }, HOST, 'conflict', /already reported/);
  });

  it('before the match is live is a conflict', () => {
    expectRefused(readyCheckLobby(), { type: 'report', scoreRed: 1, scoreBlu: 0 }, HOST, 'conflict');
  });

  it('with a negative score is 400', () => {
    expectRefused(liveLobby(), { type: 'report', scoreRed: -1, scoreBlu: 0 }, HOST, 'invalid');
  });

  it('with a fractional score is 400', () => {
    expectRefused(liveLobby(), { type: 'report', scoreRed: 1.5, scoreBlu: 0 }, HOST, 'invalid');
  });

  it('announces the result and that everybody is free again', () => {
    const live = liveLobby();
    const out = events(live, { type: 'report', scoreRed: 2, scoreBlu: 1 }, HOST);
    expect(out[0]).toEqual({ type: 'phase_changed', from: 'live', to: 'ended' });
    expect(out).toContainEqual({ type: 'match_reported', scoreRed: 2, scoreBlu: 1 });
    const left = out.find((e) => e.type === 'members_changed');
    expect(left && left.type === 'members_changed' && left.left.length).toBe(live.pool.length + 12);
  });

  it('leaves the match id for the engine to record', () => {
    expect(endedLobby().matchId).toBeNull();
  });
});

describe('record-match', () => {
  it('stores the match id of an ended lobby', () => {
    expect(run(endedLobby(), { type: 'record-match', matchId: 42 }, HOST).matchId).toBe(42);
  });

  it('announces the recorded match', () => {
    expect(events(endedLobby(), { type: 'record-match', matchId: 42 }, HOST)).toEqual([{ type: 'match_recorded', matchId: 42 }]);
  });

  it('a second time is a conflict', () => {
    const s = run(endedLobby(), { type: 'record-match', matchId: 42 }, HOST);
    expectRefused(s, { type: 'record-match', matchId: 43 }, HOST, 'conflict');
  });

  it('before the report is a conflict', () => {
    expectRefused(liveLobby(), { type: 'record-match', matchId: 42 }, HOST, 'conflict');
  });

  it('on a cancelled lobby is a conflict', () => {
    expectRefused(cancelledLobby(), { type: 'record-match', matchId: 42 }, HOST, 'conflict');
  });

  it('with an id that is not a positive integer is 400', () => {
    expectRefused(endedLobby(), { type: 'record-match', matchId: 0 }, HOST, 'invalid');
  });
});

describe('cancel', () => {
  it('by the host cancels the lobby and stamps the end', () => {
    const s = run(gatheringLobby(), { type: 'cancel' }, HOST, T0 + 5);
    expect([s.phase, s.endedAt]).toEqual(['cancelled', T0 + 5]);
  });

  it('by an admin who is not the host is allowed', () => {
    expect(run(gatheringLobby(), { type: 'cancel' }, actor(OUTSIDER, { isAdmin: true })).phase).toBe('cancelled');
  });

  it('by anyone else is forbidden', () => {
    expectRefused(gatheringLobby(), { type: 'cancel' }, RED_CAP, 'forbidden');
  });

  it('of a cancelled lobby is refused as already cancelled', () => {
    expectRefused(cancelledLobby(), { type: 'cancel' }, HOST, 'conflict', /lobby already cancelled/);
  });

  it('of an ended lobby is a conflict', () => {
    expectRefused(endedLobby(), { type: 'cancel' }, HOST, 'conflict');
  });

  it('stops a running ready check', () => {
    expect(run(readyCheckLobby(), { type: 'cancel' }, HOST).readyCheckDeadline).toBeNull();
  });

  it('may stop a live match', () => {
    expect(run(liveLobby(), { type: 'cancel' }, HOST).phase).toBe('cancelled');
  });

  it('frees every member', () => {
    const before = gatheringLobby();
    const out = events(before, { type: 'cancel' }, HOST);
    const change = out.find((e) => e.type === 'members_changed');
    expect(change && change.type === 'members_changed' && change.left.sort()).toEqual([...before.pool, 2, 3, 4].sort());
  });
});

describe('closed lobbies', () => {
  const commands: LobbyCommand[] = [
    { type: 'join' }, { type: 'leave' }, { type: 'vote-map', map: 'cp_sunshine' }, { type: 'set-class', class: 'pyro' },
    { type: 'ready' }, { type: 'kick', userId: SEATED }, { type: 'cancel' }, { type: 'pick-slot', team: 'red', index: 0 },
  ];

  it.each(commands.map((c) => [c.type, c] as const))('refuse %s once ended', (_type, command) => {
    expectRefused(endedLobby(), command, HOST, 'conflict');
  });

  it.each(commands.map((c) => [c.type, c] as const))('refuse %s once cancelled', (_type, command) => {
    expectRefused(cancelledLobby(), command, actor(POOLED), 'conflict');
  });

  it('answer a tick with the very same state', () => {
    const s = cancelledLobby();
    const out = applyLobbyCommand(s, { type: 'tick' }, actor(HOST), T0 + 999_999);
    expect(out.ok && out.state).toBe(s);
  });
});
