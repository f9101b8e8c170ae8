import { describe, expect, it } from 'vitest';
import { memberKey, withMemberKeys, type LobbyState } from '../../../src/domain/lobby/lobby-state';
import { lobbyDetail } from '../../../src/domain/lobby/lobby-view';
import { liveLobbyState, parseLobby } from '../../../src/engine/lobby-documents';
import { gatheringLobby, HOST, POOLED, run, T0 } from './lobby-fixtures';

/** The lobby as a version before member keys stored it: bare user ids in `votes` and `profiles`. */
function storedWithBareIds(state: LobbyState): LobbyState {
  const bare = <T>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).map(([key, value]) => [key.slice(1), value]));
  return JSON.parse(JSON.stringify({ ...state, votes: bare(state.votes), profiles: bare(state.profiles) })) as LobbyState;
}

const voted = (): LobbyState => {
  const lobby = gatheringLobby();
  return run(lobby, { type: 'vote-map', map: lobby.mapPool[1] }, POOLED);
};

describe('member keys', () => {
  it('key votes and profiles by the user id after a letter, so no key is an array index', () => {
    const lobby = voted();
    expect(Object.keys(lobby.votes)).toEqual([memberKey(POOLED)]);
    expect(memberKey(POOLED)).toBe(`u${POOLED}`);
    expect(Object.keys(lobby.profiles)).toContain(memberKey(HOST));
  });

  it('rekey a lobby the live store holds from before them, keeping every vote and profile', () => {
    const lobby = voted();
    expect(liveLobbyState(storedWithBareIds(lobby))).toEqual(lobby);
  });

  it('rekey a lobby Postgres holds from before them', () => {
    const lobby = voted();
    expect(parseLobby(storedWithBareIds(lobby))).toEqual(lobby);
  });

  it('show an old lobby as the same detail: names, votes, my vote', () => {
    const lobby = voted();
    expect(lobbyDetail(liveLobbyState(storedWithBareIds(lobby)), T0)).toEqual(lobbyDetail(lobby, T0));
  });

  it('leave a lobby keyed already as the very same object', () => {
    const lobby = voted();
    expect(withMemberKeys(lobby)).toBe(lobby);
  });

  it('let the rules go on from an old lobby: a vote replaces the voter\'s old one', () => {
    const lobby = voted();
    const again = run(liveLobbyState(storedWithBareIds(lobby)), { type: 'vote-map', map: lobby.mapPool[0] }, POOLED);
    expect(again.votes).toEqual({ [memberKey(POOLED)]: lobby.mapPool[0] });
  });
});
