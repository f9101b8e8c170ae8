import { expect, it } from 'vitest';
import { draftTurn, lobbyDetail, READY_FLAG_MS, type LobbyState } from '../../src/domain/lobby';
import { TF_CLASSES } from '../../src/domain/lobby/formats';
import type { LobbyCommand } from '../../src/domain/lobby/lobby-commands';
import { readBody, updateJson } from '../../src/engine/lobby-update-fields';
import { LobbyUpdateRenderer } from '../../src/engine/lobby-update-renderer';
import {
  attempt, BLU_CAP, draftingLobby, fillers, gatheringLobby, HOST, liveLobby, newLobby, OUTSIDER, OUTSIDER_2, POOLED, readyCheckLobby, RED_CAP,
  SEATED, T0,
} from '../unit/lobby/lobby-fixtures';

/*
 * The renderer keeps a field's JSON while the state parts the field names stay the same (see
 * DETAIL_HEAD/DETAIL_TAIL): a part missing from a field's list would leave that field stale in a
 * delta. So: walk lobbies through every kind of command, by everyone, at moving times, and
 * check that each delta, spliced into the fields before it as a receiver does, is the whole update.
 */

/** A small seeded generator, so a failure repeats. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

const PEOPLE = [HOST, RED_CAP, BLU_CAP, SEATED, POOLED, OUTSIDER, OUTSIDER_2, ...fillers(14)];

/** Every kind of command, each by someone who may well be allowed to send it (or, now and then, anyone). */
function commandsFor(state: LobbyState, next: () => number): Array<[LobbyCommand, number]> {
  const pickOne = <T>(list: readonly T[], otherwise: T): T => (list.length === 0 ? otherwise : list[Math.floor(next() * list.length)]);
  const anyone = () => pickOne(PEOPLE, HOST);
  const seated = [...state.teams.red, ...state.teams.blu].flatMap((slot) => (slot.userId === null ? [] : [slot.userId]));
  const captains = [state.captains.red, state.captains.blu].flatMap((id) => (id === null ? [] : [id]));
  const turn = draftTurn(state);
  const picker = (turn && state.captains[turn]) ?? pickOne(captains, HOST);
  const last = state.picks[state.picks.length - 1];
  const by = (usual: number) => (next() < 0.8 ? usual : anyone());
  return [
    [{ type: 'join' }, anyone()],
    [{ type: 'leave' }, pickOne([...state.pool, ...seated], anyone())],
    [{ type: 'vote-map', map: pickOne(state.mapPool, '') }, pickOne([...state.pool, ...seated], anyone())],
    [{ type: 'ready' }, by(pickOne(seated, HOST))],
    [{ type: 'keep-ready' }, by(pickOne(seated, HOST))],
    [{ type: 'set-class', class: pickOne(TF_CLASSES, 'scout') }, by(pickOne(seated, HOST))],
    [{ type: 'start-draft' }, by(state.hostId)],
    [{ type: 'pick', userId: pickOne(state.pool, anyone()) }, by(picker)],
    [{ type: 'unpick', userId: last?.userId ?? anyone() }, by(last?.by ?? picker)],
    [{ type: 'drop-to-pool', userId: pickOne(seated, anyone()) }, by(pickOne(captains, state.hostId))],
    [{ type: 'pick-slot', team: next() < 0.5 ? 'red' : 'blu', index: Math.floor(next() * 6) }, by(pickOne([...state.pool, ...seated], anyone()))],
    [{ type: 'kick', userId: pickOne(seated, anyone()) }, by(pickOne(captains, state.hostId))],
    [{ type: 'set-captain', userId: pickOne(seated, anyone()), team: next() < 0.5 ? 'red' : 'blu' }, by(state.hostId)],
    [{ type: 'force-start' }, by(state.hostId)],
    [{ type: 'tick' }, state.hostId],
    // Rarely: they end the walk.
    ...(next() < 0.03 ? ([[{ type: 'report', scoreRed: 3, scoreBlu: 1 }, by(state.hostId)], [{ type: 'cancel' }, by(state.hostId)]] as Array<[LobbyCommand, number]>) : []),
  ];
}

/** The fields a delta leaves the receiver with: the base's, with the delta's spliced in. */
function spliced(names: readonly string[], base: string[], body: string): string[] {
  const { whole, entries } = readBody(body);
  const values = whole ? [] : [...base];
  for (const [name, json] of entries) values[names.indexOf(name)] = json;
  return values;
}

it.each([
  ['a new lobby', () => newLobby(), 20],
  ['a full gathering lobby', () => gatheringLobby(), 20],
  ['a drafting lobby', draftingLobby, 20],
  ['a lobby in its ready check', () => readyCheckLobby(), 5],
  // Only its report changes it, and the match id recorded after.
  ['a live lobby', liveLobby, 1],
])('assembles every delta of %s, walked through every kind of command, into its whole update', (_name, start, least) => {
  const next = random(7);
  const renderer = new LobbyUpdateRenderer();
  let state = start();
  let now = T0;
  let fields = renderer.fields(state, now);
  renderer.body(state, null, now);
  let changes = 0;
  for (let step = 0; step < 400 && changes < 150; step++) {
    now += Math.floor(next() * READY_FLAG_MS * 0.4);
    const commands = commandsFor(state, next);
    const [command, who] = commands[Math.floor(next() * commands.length)];
    const outcome = attempt(state, command, who, now);
    if (!outcome.ok || outcome.state === state) continue;
    const body = renderer.body(outcome.state, state, now);
    const values = spliced(fields.names, fields.values, body);
    expect(updateJson(outcome.state.code, outcome.state.version, { names: fields.names, values }), `${command.type} at step ${step}`).toBe(
      JSON.stringify({ code: outcome.state.code, version: outcome.state.version, lobby: lobbyDetail(outcome.state, now) }),
    );
    fields = { names: fields.names, values };
    state = outcome.state;
    changes++;
  }
  expect(changes).toBeGreaterThanOrEqual(least);
});
