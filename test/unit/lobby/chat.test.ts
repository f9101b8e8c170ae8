import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { chatMessage, validateChat } from '../../../src/domain/lobby/lobby-chat';
import { LobbyChatMessage } from '../../../src/domain/lobby/lobby-wire';
import { actor, cancelledLobby, endedLobby, gatheringLobby, OUTSIDER, POOLED, profile, T0 } from './lobby-fixtures';

const kind = (e: ReturnType<typeof validateChat>) => e?.kind ?? 'ok';

describe('chat', () => {
  it('accepts a message from a member', () => {
    expect(kind(validateChat(gatheringLobby().phase, actor(POOLED), 'gl hf', T0))).toBe('ok');
  });

  it('accepts a message from a signed-in onlooker', () => {
    expect(kind(validateChat(gatheringLobby().phase, actor(OUTSIDER), 'can I join?', T0))).toBe('ok');
  });

  it('is forbidden to a banned user', () => {
    expect(kind(validateChat(gatheringLobby().phase, actor(POOLED, { banned: true }), 'hi', T0))).toBe('forbidden');
  });

  it('is a conflict on an ended lobby', () => {
    expect(kind(validateChat(endedLobby().phase, actor(POOLED), 'gg', T0))).toBe('conflict');
  });

  it('is a conflict on a cancelled lobby', () => {
    expect(kind(validateChat(cancelledLobby().phase, actor(POOLED), 'gg', T0))).toBe('conflict');
  });

  it('refuses a blank message', () => {
    expect(kind(validateChat(gatheringLobby().phase, actor(POOLED), '   ', T0))).toBe('invalid');
  });

  it('accepts exactly 500 characters', () => {
    expect(kind(validateChat(gatheringLobby().phase, actor(POOLED), 'a'.repeat(500), T0))).toBe('ok');
  });

  it('refuses 501 characters', () => {
    expect(kind(validateChat(gatheringLobby().phase, actor(POOLED), 'a'.repeat(501), T0))).toBe('invalid');
  });

  it('refuses a message that is not a string', () => {
    expect(kind(validateChat(gatheringLobby().phase, actor(POOLED), 42, T0))).toBe('invalid');
  });

  it('builds the wire message but for its id, with trimmed text and ISO time', () => {
    const m = chatMessage(profile(POOLED), '  gl hf ', T0);
    expect(m).toEqual({ user: profile(POOLED), message: 'gl hf', created_at: new Date(T0).toISOString() });
    expect(v.is(LobbyChatMessage, { id: 17, ...m })).toBe(true);
  });
});
