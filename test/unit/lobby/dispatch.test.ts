import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import type { LobbyCommand } from '../../../src/domain/lobby/lobby-commands';
import { CLIENT_COMMAND_TYPES, isClientCommandType, SYSTEM_COMMAND_TYPES } from '../../../src/domain/lobby/lobby-commands';
import { LobbyState } from '../../../src/domain/lobby/lobby-state';
import {
  actor, attempt, draftingLobby, newLobby, gatheringLobby, HOST, OUTSIDER, POOLED, readyCheckLobby, RED_CAP, run, T0,
} from './lobby-fixtures';

describe('applying a command', () => {
  it('bumps the version by exactly one when it changes the lobby', () => {
    const s = newLobby();
    expect(run(s, { type: 'join' }, actor(OUTSIDER)).version).toBe(s.version + 1);
  });

  it('keeps the very same state and emits nothing when the command changes nothing', () => {
    const s = gatheringLobby();
    const out = attempt(s, { type: 'set-captain', userId: RED_CAP, team: 'red' }, HOST);
    expect(out).toEqual({ ok: true, state: s, events: [] });
    expect(out.ok && out.state).toBe(s);
  });

  it('counts a due settle and the command together as one change', () => {
    const rc = readyCheckLobby();
    const s = run(rc, { type: 'leave' }, POOLED, T0 + 60_000);
    expect(s.phase).toBe('drafting');
    expect(s.pool).not.toContain(POOLED);
    expect(s.version).toBe(rc.version + 1);
  });

  it('counts a due settle as a change even when the command itself changes nothing', () => {
    const rc = run(readyCheckLobby(), { type: 'vote-map', map: 'cp_sunshine' }, POOLED);
    const s = run(rc, { type: 'vote-map', map: 'cp_sunshine' }, POOLED, T0 + 60_000);
    expect(s.version).toBe(rc.version + 1);
  });

  it('never changes the state it is given', () => {
    const s = draftingLobby();
    const copy = structuredClone(s);
    run(s, { type: 'pick', userId: POOLED }, RED_CAP);
    attempt(s, { type: 'pick', userId: POOLED }, HOST);
    expect(s).toEqual(copy);
  });

  it('refuses an unknown command type with 400', () => {
    const out = attempt(gatheringLobby(), { type: 'explode' } as unknown as LobbyCommand, HOST);
    expect(!out.ok && out.error.kind).toBe('invalid');
  });

  it('leaves a document that still matches the stored-state schema', () => {
    const s = run(draftingLobby(), { type: 'pick', userId: POOLED }, RED_CAP);
    expect(v.is(LobbyState, s)).toBe(true);
  });
});

describe('command types', () => {
  it('keep record-match and tick away from clients', () => {
    expect(SYSTEM_COMMAND_TYPES).toEqual(['record-match', 'tick']);
    for (const type of SYSTEM_COMMAND_TYPES) expect(isClientCommandType(type)).toBe(false);
  });

  it('let clients use every route segment', () => {
    for (const type of CLIENT_COMMAND_TYPES) expect(isClientCommandType(type)).toBe(true);
    expect(isClientCommandType('chat')).toBe(false);
  });
});
