import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { createLobby } from '../../../src/domain/lobby/create-lobby';
import { draftTurn } from '../../../src/domain/lobby/draft-turn';
import { CLASS_LIMITS, FORMAT_SLOTS, KNOWN_MAPS, LOBBY_FORMATS, TF_CLASSES, type LobbyFormat } from '../../../src/domain/lobby/formats';
import type { Actor } from '../../../src/domain/lobby/lobby-actor';
import type { LobbyCommand } from '../../../src/domain/lobby/lobby-commands';
import { openMembers, seatedIds } from '../../../src/domain/lobby/lobby-membership';
import { applyLobbyCommand } from '../../../src/domain/lobby/lobby-rules';
import { isClosed, LobbyState, memberKey, TEAMS, type LobbyPhase } from '../../../src/domain/lobby/lobby-state';
import { lobbyDetail } from '../../../src/domain/lobby/lobby-view';
import { LobbyDetail } from '../../../src/domain/lobby/lobby-wire';
import { settle } from '../../../src/domain/lobby/settle';
import { profile, T0 } from './lobby-fixtures';

/*
 * Random command sequences from random users at increasing times. Some steps are "aimed" (the
 * captain on turn picks, a seated player readies) so that runs get past the draft often enough.
 */

const USERS = 22;
const BANNED_ID = 22;
const ADMIN_ID = 21;
const ELSEWHERE_ID = 20; // always in some other lobby according to the engine's index

type Step =
  | { kind: 'raw'; who: number; command: LobbyCommand; dt: number }
  | { kind: 'aimed'; what: 'join' | 'start' | 'pick' | 'ready' | 'report' | 'force'; k: number; dt: number };

const userId = fc.integer({ min: 1, max: USERS + 1 });
const team = fc.constantFrom('red' as const, 'blu' as const);
const map = fc.constantFrom(...KNOWN_MAPS, 'de_dust2');

const command: fc.Arbitrary<LobbyCommand> = fc.oneof(
  { arbitrary: fc.constant({ type: 'join' } as const), weight: 6 },
  { arbitrary: fc.uniqueArray(userId, { minLength: 1, maxLength: 3 }).map((ids) => ({ type: 'party-join', members: ids }) as never), weight: 1 },
  { arbitrary: fc.constant({ type: 'leave' } as const), weight: 1 },
  { arbitrary: userId.map((id) => ({ type: 'kick', userId: id }) as const), weight: 1 },
  { arbitrary: fc.record({ userId, team: fc.option(team, { nil: undefined }) }).map((b) => ({ type: 'set-captain', ...b }) as LobbyCommand), weight: 2 },
  { arbitrary: fc.constant({ type: 'start-draft' } as const), weight: 2 },
  { arbitrary: userId.map((id) => ({ type: 'pick', userId: id }) as const), weight: 3 },
  { arbitrary: userId.map((id) => ({ type: 'unpick', userId: id }) as const), weight: 1 },
  { arbitrary: userId.map((id) => ({ type: 'drop-to-pool', userId: id }) as const), weight: 1 },
  {
    arbitrary: fc.record({ team, index: fc.integer({ min: -1, max: 9 }), userId: fc.option(userId, { nil: undefined }) })
      .map((b) => ({ type: 'pick-slot', ...b }) as LobbyCommand),
    weight: 2,
  },
  { arbitrary: fc.constantFrom(...TF_CLASSES).map((c) => ({ type: 'set-class', class: c }) as const), weight: 2 },
  { arbitrary: map.map((m) => ({ type: 'vote-map', map: m }) as const), weight: 1 },
  { arbitrary: fc.constant({ type: 'ready' } as const), weight: 2 },
  { arbitrary: fc.constant({ type: 'keep-ready' } as const), weight: 2 },
  { arbitrary: fc.constant({ type: 'force-start' } as const), weight: 1 },
  { arbitrary: fc.record({ scoreRed: fc.integer({ min: -1, max: 5 }), scoreBlu: fc.integer({ min: 0, max: 5 }) }).map((b) => ({ type: 'report', ...b }) as const), weight: 1 },
  { arbitrary: fc.constant({ type: 'cancel' } as const), weight: 1 },
  { arbitrary: fc.integer({ min: 0, max: 3 }).map((id) => ({ type: 'record-match', matchId: id }) as const), weight: 1 },
  { arbitrary: fc.constant({ type: 'tick' } as const), weight: 1 },
);

const dt = fc.oneof({ arbitrary: fc.integer({ min: 0, max: 5_000 }), weight: 8 }, { arbitrary: fc.integer({ min: 25_000, max: 70_000 }), weight: 1 });

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('raw' as const), who: userId, command, dt }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('aimed' as const),
      what: fc.oneof(
        { arbitrary: fc.constant('join' as const), weight: 4 },
        { arbitrary: fc.constant('start' as const), weight: 1 },
        { arbitrary: fc.constant('pick' as const), weight: 4 },
        { arbitrary: fc.constant('ready' as const), weight: 5 },
        { arbitrary: fc.constantFrom('report' as const, 'force' as const), weight: 1 },
      ),
      k: fc.nat(50),
      dt,
    }),
    weight: 3,
  },
);

const scenario = fc.record({
  format: fc.constantFrom(...LOBBY_FORMATS),
  elo: fc.array(fc.integer({ min: 800, max: 2000 }), { minLength: USERS + 1, maxLength: USERS + 1 }),
  steps: fc.array(step, { minLength: 1, maxLength: 120, size: 'max' }),
});

function actorFor(state: LobbyState, id: number, elo: number[]): Actor {
  const member = openMembers(state).includes(id);
  return {
    id,
    profile: profile(id, elo[id - 1] ?? 1000),
    isAdmin: id === ADMIN_ID,
    banned: id === BANNED_ID,
    currentLobby: member ? state.code : id === ELSEWHERE_ID ? 'ELSE' : null,
  };
}

/** Turn an aimed step into a concrete command and caller for the current state (or nothing to do). */
function resolve(state: LobbyState, s: Step, elo: number[]): { who: Actor; command: LobbyCommand } | null {
  if (s.kind === 'raw') {
    const cmd = s.command.type === 'party-join'
      ? { type: 'party-join' as const, members: (s.command.members as unknown as number[]).map((id) => actorFor(state, id, elo)) }
      : s.command;
    return { who: actorFor(state, s.who, elo), command: cmd };
  }
  const seated = seatedIds(state);
  switch (s.what) {
    case 'join': {
      const members = new Set(openMembers(state));
      const outsiders = Array.from({ length: USERS }, (_, i) => i + 1).filter((id) => !members.has(id));
      return outsiders.length === 0 ? null : { who: actorFor(state, outsiders[s.k % outsiders.length], elo), command: { type: 'join' } };
    }
    case 'start':
      return { who: actorFor(state, state.hostId, elo), command: { type: 'start-draft' } };
    case 'pick': {
      const turn = draftTurn(state);
      const captain = turn && state.captains[turn];
      if (captain == null || state.pool.length === 0) return null;
      return { who: actorFor(state, captain, elo), command: { type: 'pick', userId: state.pool[s.k % state.pool.length] } };
    }
    case 'ready':
      return seated.length === 0 ? null : { who: actorFor(state, seated[s.k % seated.length], elo), command: { type: s.k % 3 === 0 ? 'keep-ready' : 'ready' } };
    case 'report':
      return { who: actorFor(state, state.hostId, elo), command: { type: 'report', scoreRed: s.k % 6, scoreBlu: s.k % 4 } };
    case 'force':
      return { who: actorFor(state, state.hostId, elo), command: { type: 'force-start' } };
  }
}

/** Plain throws rather than expect(): this runs tens of thousands of times. */
function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`invariant broken: ${message}`);
}

const json = (x: unknown) => JSON.stringify(x);

function checkInvariants(state: LobbyState, format: LobbyFormat, now: number): void {
  const places = [...state.pool, ...seatedIds(state)];
  check(new Set(places).size === places.length, 'a user is in two places');
  check(places.length <= 2 * FORMAT_SLOTS[format].length, `${places.length} players in a ${format} lobby`);
  // Capacity is what lets every draft finish: with the pool non-empty there is a free slot to pick into.
  check(state.phase !== 'drafting' || state.pool.length === 0 || draftTurn(state) !== null, 'players in the pool but no team may pick');
  check(state.phase !== 'ready_check' || state.pool.length === 0, 'a ready check with players left in the pool');
  for (const t of TEAMS) {
    check(json(state.teams[t].map((slot) => slot.index)) === json(FORMAT_SLOTS[format].map((_, i) => i)), `${t} lost the shape of ${format}`);
    for (const cls of TF_CLASSES) {
      check(state.teams[t].filter((slot) => slot.class === cls).length <= CLASS_LIMITS[format][cls], `${t} exceeds the ${cls} limit`);
    }
    const captain = state.captains[t];
    check(captain === null || state.teams[t].some((slot) => slot.userId === captain), `${t} captain is not seated on ${t}`);
    check(state.teams[t].every((slot) => slot.userId !== null || slot.readyUntil === null), 'an empty slot is ready');
  }
  check(state.captains.red === null || state.captains.red !== state.captains.blu, 'one captain for both teams');
  check(state.picks.every((p) => state.teams[p.team].some((slot) => slot.userId === p.userId)), 'draft history names someone not on that team');
  check(places.every((id) => state.profiles[memberKey(id)] !== undefined), 'a member has no profile');
  check(Object.entries(state.votes).every(([voter, m]) => places.some((id) => memberKey(id) === voter) && state.mapPool.includes(m)) || isClosed(state.phase), 'a stray vote');
  check((state.readyCheckDeadline !== null) === (state.phase === 'ready_check'), 'deadline out of step with the phase');
  check(state.phase !== 'ready_check' || seatedIds(state).length === 2 * FORMAT_SLOTS[format].length, 'ready check with empty slots');
  check(!(state.phase === 'live' || state.phase === 'ended') || state.startedAt !== null, 'live without a start time');
  const settled = settle(state, now);
  check(settle(settled, now) === settled, 'settle is not idempotent');
}

function checkWire(state: LobbyState, now: number): void {
  check(v.is(LobbyState, state), 'state does not match its schema');
  check(v.is(LobbyDetail, lobbyDetail(state, now)), 'detail does not match its schema');
}

function play(format: LobbyFormat, elo: number[], steps: Step[], seen?: Set<LobbyPhase>): void {
  const created = createLobby({ code: 'PROP', format }, actorFor({ pool: [], teams: { red: [], blu: [] }, phase: 'gathering' } as never, 1, elo), T0);
  if (!created.ok) throw new Error(created.error.message);
  let state = created.state;
  let now = T0;
  for (const s of steps) {
    now += s.dt;
    const call = resolve(state, s, elo);
    if (call === null) continue;
    const before = state;
    const snapshot = json(before);
    const out = applyLobbyCommand(before, call.command, call.who, now);
    check(json(before) === snapshot, 'the input state was changed');
    if (isClosed(before.phase) && call.command.type !== 'tick' && call.command.type !== 'record-match') {
      check(!out.ok, `a ${before.phase} lobby accepted ${call.command.type}`);
    }
    if (out.ok) {
      if (out.state === before) {
        check(out.events.length === 0, 'events without a change');
      } else {
        check(out.state.version === before.version + 1, `version went ${before.version} -> ${out.state.version}`);
        check(json({ ...out.state, version: 0 }) !== json({ ...before, version: 0 }), 'version bumped with no change');
        check(out.events.length > 0 || !isClosed(out.state.phase) || isClosed(before.phase), 'closed without an event');
      }
      if (isClosed(before.phase)) {
        check(out.state.phase === before.phase, 'a closed lobby reopened');
        check(json({ ...out.state, matchId: null, version: 0 }) === json({ ...before, matchId: null, version: 0 }), 'a closed lobby changed');
      }
      state = out.state;
    }
    seen?.add(state.phase);
    checkInvariants(state, format, now);
  }
  checkWire(state, now);
}

describe('random command sequences', () => {
  it('never break the lobby invariants', () => {
    fc.assert(fc.property(scenario, ({ format, elo, steps }) => play(format, elo, steps)), { numRuns: 200 });
  });

  it('reach every phase, so the invariants are exercised beyond the gathering', () => {
    const seen = new Set<LobbyPhase>();
    for (const { format, elo, steps } of fc.sample(scenario, { numRuns: 60, seed: 20250101 })) play(format, elo, steps, seen);
    expect([...seen].sort()).toEqual(['cancelled', 'drafting', 'ended', 'gathering', 'live', 'ready_check']);
  });
});
