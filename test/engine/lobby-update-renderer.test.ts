import { describe, expect, it } from 'vitest';
import { lobbyDetail, memberKey, READY_FLAG_MS, type LobbyState } from '../../src/domain/lobby';
import { LobbyUpdateRenderer } from '../../src/engine/lobby-update-renderer';
import { readBody, updateJson } from '../../src/engine/lobby-update-fields';
import {
  actor, cancelledLobby, draftingLobby, endedLobby, gatheringLobby, HOST, liveLobby, OUTSIDER, readyCheckLobby, run, seatedOn, T0,
} from '../unit/lobby/lobby-fixtures';

/** What the renderer must write, byte for byte: the payload as JSON.stringify writes it. */
const plain = (state: LobbyState, now: number) => JSON.stringify({ code: state.code, version: state.version, lobby: lobbyDetail(state, now) });

/** A renderer's fields of a state, assembled as a receiver assembles them. */
const assembled = (renderer: LobbyUpdateRenderer, state: LobbyState, now: number) => updateJson(state.code, state.version, renderer.fields(state, now));

/** The fields a body carries, by name. */
const carried = (body: string) => Object.fromEntries(readBody(body).entries);

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
    expect(assembled(new LobbyUpdateRenderer(), state, T0)).toBe(plain(state, T0));
  });

  it('writes the next state of a lobby exactly, its unchanged teams and pool kept from the state before', () => {
    const renderer = new LobbyUpdateRenderer();
    const before = gatheringLobby();
    assembled(renderer, before, T0);
    const voted = run(before, { type: 'vote-map', map: before.mapPool[1] }, HOST);
    expect(voted.teams).toBe(before.teams);
    expect(assembled(renderer, voted, T0 + 1)).toBe(plain(voted, T0 + 1));
  });

  it('writes ready flags as of the time given, not as when the same teams were last written', () => {
    const renderer = new LobbyUpdateRenderer();
    const [player] = seatedOn(draftingLobby(), 'red');
    const state = run(draftingLobby(), { type: 'ready' }, player, T0);
    expect(assembled(renderer, state, T0 + 1)).toBe(plain(state, T0 + 1));
    expect(assembled(renderer, state, T0 + READY_FLAG_MS)).toBe(plain(state, T0 + READY_FLAG_MS));
    expect(assembled(renderer, state, T0 + READY_FLAG_MS)).toContain('"ready":false');
    // An earlier time than the one last written (another instance's clock) is written as of itself too.
    expect(assembled(renderer, state, T0 + 2)).toBe(plain(state, T0 + 2));
  });

  it('writes the teams exactly after a keep-ready, whose other seats are the slots of the state before', () => {
    const renderer = new LobbyUpdateRenderer();
    const [first, second] = seatedOn(draftingLobby(), 'red');
    const ready = run(run(draftingLobby(), { type: 'ready' }, first, T0), { type: 'ready' }, second, T0);
    assembled(renderer, ready, T0 + 1);
    const kept = run(ready, { type: 'keep-ready' }, second, T0 + 1000);
    expect(kept.teams.red[0]).toBe(ready.teams.red[0]);
    expect(assembled(renderer, kept, T0 + 1000)).toBe(plain(kept, T0 + 1000));
  });

  it("writes a newcomer's profile into the pool where the pool array was kept", () => {
    const renderer = new LobbyUpdateRenderer();
    const before = run(gatheringLobby(), { type: 'leave' }, HOST);
    assembled(renderer, before, T0);
    const joined = run(before, { type: 'join' }, actor(OUTSIDER), T0);
    expect(assembled(renderer, joined, T0)).toBe(plain(joined, T0));
  });

  it.each([
    ['seated', (state: LobbyState) => seatedOn(state, 'red')[0]],
    ['in the pool', (state: LobbyState) => state.pool[0]],
  ])('writes a player %s again when the profiles record was replaced', (_where, who) => {
    const renderer = new LobbyUpdateRenderer();
    const state = gatheringLobby();
    assembled(renderer, state, T0);
    const key = memberKey(who(state)!);
    const renamed = { ...state, profiles: { ...state.profiles, [key]: { ...state.profiles[key], username: 'renamed' } } };
    expect(assembled(renderer, renamed, T0)).toBe(plain(renamed, T0));
    expect(assembled(renderer, renamed, T0)).toContain('"renamed"');
  });

  it('sends a whole update when it knows nothing of the state before', () => {
    const state = gatheringLobby();

    const body = new LobbyUpdateRenderer().body(state, null, T0);

    expect(readBody(body).whole).toBe(true);
    expect(updateJson(state.code, state.version, { names: Object.keys(carried(body)), values: Object.values(carried(body)) })).toBe(plain(state, T0));
  });

  it('sends only the fields a vote changed, from the state it wrote one version before', () => {
    const renderer = new LobbyUpdateRenderer();
    const before = gatheringLobby();
    renderer.body(before, null, T0);
    const voted = run(before, { type: 'vote-map', map: before.mapPool[1] }, HOST);

    const body = renderer.body(voted, before, T0 + 1);

    expect(readBody(body).whole).toBe(false);
    expect(carried(body)).toEqual({ votes: JSON.stringify(lobbyDetail(voted, T0 + 1).votes), version: String(voted.version) });
  });

  it('sends a whole update when the state before was not one it wrote (read from the store, or written by another instance)', () => {
    const renderer = new LobbyUpdateRenderer();
    const before = gatheringLobby();
    const voted = run(before, { type: 'vote-map', map: before.mapPool[1] }, HOST);

    expect(readBody(renderer.body(voted, before, T0)).whole).toBe(true);
  });

  it('sends a whole update when the state it wrote is not the version just before', () => {
    const renderer = new LobbyUpdateRenderer();
    const before = gatheringLobby();
    renderer.body(before, null, T0);
    const twice = run(run(before, { type: 'vote-map', map: before.mapPool[1] }, HOST), { type: 'vote-map', map: before.mapPool[0] }, HOST);

    expect(readBody(renderer.body(twice, before, T0)).whole).toBe(true);
  });

  it('sends the teams again when a ready flag lapsed between the two versions, though the teams part is the same object', () => {
    const renderer = new LobbyUpdateRenderer();
    const [player] = seatedOn(draftingLobby(), 'red');
    const ready = run(draftingLobby(), { type: 'ready' }, player, T0);
    renderer.body(ready, null, T0 + 1);
    const voted = { ...ready, version: ready.version + 1 };

    const body = renderer.body(voted, ready, T0 + READY_FLAG_MS);

    expect(carried(body).teams).toBe(JSON.stringify(lobbyDetail(voted, T0 + READY_FLAG_MS).teams));
  });
});
