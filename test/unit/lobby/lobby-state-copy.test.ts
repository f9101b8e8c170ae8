import { describe, expect, it } from 'vitest';
import { copyLobbyState, LobbyState } from '../../../src/domain/lobby/lobby-state';
import { gatheringLobby, readyCheckLobby } from './lobby-fixtures';

describe('a copy of a lobby', () => {
  it('holds every field of the schema, in the schema order, equal to the source', () => {
    const lobby = readyCheckLobby();
    const copy = copyLobbyState(lobby);
    expect(Object.keys(copy)).toEqual(Object.keys(LobbyState.entries));
    expect(copy).toEqual(lobby);
  });

  it('shares the parts of the source, as a shallow copy does', () => {
    const lobby = gatheringLobby();
    const copy = copyLobbyState(lobby);
    expect(copy).not.toBe(lobby);
    expect(copy.teams).toBe(lobby.teams);
    expect(copy.profiles).toBe(lobby.profiles);
  });

  it('has one key order whatever the source order, as a store read may give it', () => {
    const lobby = gatheringLobby();
    const reordered = Object.fromEntries(Object.entries(lobby).reverse()) as LobbyState;
    expect(Object.keys(copyLobbyState(reordered))).toEqual(Object.keys(copyLobbyState(lobby)));
  });
});
