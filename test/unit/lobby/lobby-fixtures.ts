import { expect } from 'vitest';
import type { UserPublic } from '../../../schema/user';
import type { DomainError, Outcome } from '../../../src/domain/domain-error';
import { createLobby, type CreateLobbyInput } from '../../../src/domain/lobby/create-lobby';
import { draftTurn } from '../../../src/domain/lobby/draft-turn';
import { teamSize, type LobbyFormat } from '../../../src/domain/lobby/formats';
import type { Actor } from '../../../src/domain/lobby/lobby-actor';
import type { LobbyCommand } from '../../../src/domain/lobby/lobby-commands';
import type { LobbyEvent } from '../../../src/domain/lobby/lobby-events';
import { applyLobbyCommand } from '../../../src/domain/lobby/lobby-rules';
import { deepFreeze } from '../../support/deep-freeze';
import { memberKey, type LobbyState } from '../../../src/domain/lobby/lobby-state';

export const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
export const CODE = 'AB12';

/** Cast of the role fixtures: the host waits in the pool, two captains, a non-captain seated on red. */
export const HOST = 1;
export const RED_CAP = 2;
export const BLU_CAP = 3;
export const SEATED = 4;
export const POOLED = 5;
export const OUTSIDER = 90;
export const BANNED = 91;
export const OUTSIDER_2 = 92;
/** Extra players who fill the teams: 10, 11, ... */
export const fillers = (count: number, from = 10): number[] => Array.from({ length: count }, (_, i) => from + i);

export function profile(id: number, elo = 1000): UserPublic {
  return { id, platform_id: `7656${id}`, username: `player${id}`, avatar_url: null, elo, name_color: null, profile_frame: null };
}

export function actor(id: number, over: Partial<Actor> = {}): Actor {
  return { id, profile: profile(id), isAdmin: false, banned: false, currentLobby: null, ...over };
}

/** A user as the engine would resolve them for this lobby: their index entry points here once they joined. */
export function actorIn(state: LobbyState, id: number, over: Partial<Actor> = {}): Actor {
  const inside = state.pool.includes(id) || [...state.teams.red, ...state.teams.blu].some((s) => s.userId === id);
  return actor(id, { currentLobby: inside ? state.code : null, profile: state.profiles[memberKey(id)] ?? profile(id), ...over });
}

type Who = number | Actor;
const asActor = (state: LobbyState, who: Who): Actor => (typeof who === 'number' ? actorIn(state, who) : who);

/** Runs a command on a frozen state: a rule that changed its input in place would throw here. */
export function attempt(state: LobbyState, command: LobbyCommand, who: Who, now = T0): Outcome<LobbyState, LobbyEvent> {
  return applyLobbyCommand(deepFreeze(state), command, asActor(state, who), now);
}

/** Run a command that must succeed; returns the new state. */
export function run(state: LobbyState, command: LobbyCommand, who: Who, now = T0): LobbyState {
  const out = attempt(state, command, who, now);
  if (!out.ok) throw new Error(`${command.type} by ${typeof who === 'number' ? who : who.id} refused: ${out.error.kind} ${out.error.message}`);
  return out.state;
}

export function events(state: LobbyState, command: LobbyCommand, who: Who, now = T0): LobbyEvent[] {
  const out = attempt(state, command, who, now);
  if (!out.ok) throw new Error(`${command.type} refused: ${out.error.message}`);
  return out.events;
}

/** Run a command that must fail; returns its error. */
export function refusal(state: LobbyState, command: LobbyCommand, who: Who, now = T0): DomainError {
  const out = attempt(state, command, who, now);
  if (out.ok) throw new Error(`${command.type} unexpectedly succeeded`);
  return out.error;
}

export function expectRefused(state: LobbyState, command: LobbyCommand, who: Who, kind: DomainError['kind'], message?: string | RegExp, now = T0): void {
  const error = refusal(state, command, who, now);
  expect(error.kind).toBe(kind);
  if (message !== undefined) expect(error.message).toMatch(message);
}

export function newLobby(input: Partial<CreateLobbyInput> = {}, host: Actor = actor(HOST), now = T0): LobbyState {
  const out = createLobby({ code: CODE, ...input }, host, now);
  if (!out.ok) throw new Error(out.error.message);
  return out.state;
}

export function joinAll(state: LobbyState, ids: number[], now = T0, elo?: (id: number) => number): LobbyState {
  return ids.reduce((s, id) => run(s, { type: 'join' }, actor(id, { profile: profile(id, elo ? elo(id) : 1000) }), now), state);
}

/** Whoever's turn it is picks the first free agent who is not excluded, until both teams are full. */
export function draftUntilFull(state: LobbyState, now = T0, exclude: number[] = []): LobbyState {
  let s = state;
  while (s.phase === 'drafting') {
    const turn = draftTurn(s);
    const captain = turn && s.captains[turn];
    // Excluded players are picked last, when nobody else is left.
    const next = s.pool.find((id) => !exclude.includes(id)) ?? s.pool[0];
    if (captain == null || next === undefined) throw new Error('draft cannot continue');
    s = run(s, { type: 'pick', userId: next }, captain, now);
  }
  return s;
}

/** Gathering, full (12 of 12): red = [SEATED, RED_CAP], blu = [BLU_CAP]; pool = HOST, POOLED, 10..16. */
export function gatheringLobby(format: LobbyFormat = '6v6'): LobbyState {
  let s = newLobby({ format });
  s = joinAll(s, [RED_CAP, BLU_CAP, SEATED, POOLED, ...fillers(2 * teamSize(format) - 5)]);
  s = run(s, { type: 'set-captain', userId: SEATED, team: 'red' }, HOST);
  s = run(s, { type: 'set-captain', userId: RED_CAP, team: 'red' }, HOST);
  s = run(s, { type: 'set-captain', userId: BLU_CAP, team: 'blu' }, HOST);
  return s;
}

/** Drafting, red to pick; the last pick was BLU_CAP taking 10. */
export function draftingLobby(): LobbyState {
  let s = run(gatheringLobby(), { type: 'start-draft' }, HOST);
  s = run(s, { type: 'pick', userId: 10 }, BLU_CAP);
  return s;
}

/** Ready check with both teams full and the pool empty: HOST and POOLED were drafted last. */
export function readyCheckLobby(now = T0): LobbyState {
  return draftUntilFull(draftingLobby(), now, [HOST, POOLED]);
}

export const liveLobby = (): LobbyState => run(readyCheckLobby(), { type: 'force-start' }, HOST);
export const endedLobby = (): LobbyState => run(liveLobby(), { type: 'report', scoreRed: 3, scoreBlu: 2 }, HOST);
export const cancelledLobby = (): LobbyState => run(gatheringLobby(), { type: 'cancel' }, HOST);

export const seatedOn = (state: LobbyState, team: 'red' | 'blu'): number[] =>
  state.teams[team].flatMap((s) => (s.userId === null ? [] : [s.userId]));

export const slotUser = (state: LobbyState, team: 'red' | 'blu', index: number): number | null => state.teams[team][index].userId;
