import { describe, expect, it } from 'vitest';
import { lobbyDetail, READY_FLAG_MS, type LobbyState } from '../../src/domain/lobby';
import { LobbyUpdateRenderer } from '../../src/engine/lobby-update-renderer';
import {
  actor, cancelledLobby, draftingLobby, endedLobby, gatheringLobby, HOST, liveLobby, OUTSIDER, readyCheckLobby, run, seatedOn, T0,
} from '../unit/lobby/lobby-fixtures';

/** What the renderer must write, byte for byte: the payload as JSON.stringify writes it. */
const plain = (state: LobbyState, now: number) => JSON.stringify({ code: state.code, version: state.version, lobby: lobbyDetail(state, now) });

describe('LobbyUpdateRenderer', () => {
  it.each([
    ['gathering', gatheringLobby],
    ['drafting', draftingLobby],
    ['in its ready check', () => readyCheckLobby()],
    ['live', liveLobby],
    ['ended', endedLobby],
    ['cancelled', cancelledLobby],
  ])('writes a lobby %s exactly as JSON.stringify of its detail does', (_phase, lobby) => {
    const state = lobby();
    expect(new LobbyUpdateRenderer().json(state, T0)).toBe(plain(state, T0));
  });

  it('writes the next state of a lobby exactly, its unchanged teams and pool kept from the state before', () => {
    const renderer = new LobbyUpdateRenderer();
    const before = gatheringLobby();
    renderer.json(before, T0);
    const voted = run(before, { type: 'vote-map', map: before.mapPool[1] }, HOST);
    expect(voted.teams).toBe(before.teams);
    expect(renderer.json(voted, T0 + 1)).toBe(plain(voted, T0 + 1));
  });

  it('writes ready flags as of the time given, not as when the same teams were last written', () => {
    const renderer = new LobbyUpdateRenderer();
    const [player] = seatedOn(draftingLobby(), 'red');
    const state = run(draftingLobby(), { type: 'ready' }, player, T0);
    expect(renderer.json(state, T0 + 1)).toBe(plain(state, T0 + 1));
    expect(renderer.json(state, T0 + READY_FLAG_MS)).toBe(plain(state, T0 + READY_FLAG_MS));
    expect(renderer.json(state, T0 + READY_FLAG_MS)).toContain('"ready":false');
    // An earlier time than the one last written (another instance's clock) is written as of itself too.
    expect(renderer.json(state, T0 + 2)).toBe(plain(state, T0 + 2));
  });

  it("writes a newcomer's profile into the pool where the pool array was kept", () => {
    const renderer = new LobbyUpdateRenderer();
    const before = run(gatheringLobby(), { type: 'leave' }, HOST);
    renderer.json(before, T0);
    const joined = run(before, { type: 'join' }, actor(OUTSIDER), T0);
    expect(renderer.json(joined, T0)).toBe(plain(joined, T0));
  });

  it.each([
    ['seated', (state: LobbyState) => seatedOn(state, 'red')[0]],
    ['in the pool', (state: LobbyState) => state.pool[0]],
  ])('writes a player %s again when the profiles record was replaced', (_where, who) => {
    const renderer = new LobbyUpdateRenderer();
    const state = gatheringLobby();
    renderer.json(state, T0);
    const id = who(state);
    const renamed = { ...state, profiles: { ...state.profiles, [id]: { ...state.profiles[id], username: 'renamed' } } };
    expect(renderer.json(renamed, T0)).toBe(plain(renamed, T0));
    expect(renderer.json(renamed, T0)).toContain('"renamed"');
  });
});
