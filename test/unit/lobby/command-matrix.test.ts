import { describe, expect, it } from 'vitest';
import type { LobbyCommand, LobbyCommandType } from '../../../src/domain/lobby/lobby-commands';
import type { LobbyPhase, LobbyState } from '../../../src/domain/lobby/lobby-state';
import {
  actor, actorIn, attempt, BANNED, BLU_CAP, cancelledLobby, draftingLobby, endedLobby, gatheringLobby, HOST, liveLobby,
  OUTSIDER, OUTSIDER_2, POOLED, readyCheckLobby, RED_CAP, SEATED, T0,
} from './lobby-fixtures';

/*
 * Every command x every phase x every role, against the documented outcome kind. The fixtures are
 * full lobbies, so from the ready check on the host and the "pool player" are seated (red and blu
 * medic): a full lobby's draft leaves nobody in the pool.
 * ok = succeeds and bumps the version; same = succeeds with the state untouched.
 */
type Expect = 'ok' | 'same' | '400' | '403' | '404' | '409';
const ROLES = ['host', 'red captain', 'blu captain', 'seated player', 'pool player', 'outsider', 'banned user'] as const;
type Role = (typeof ROLES)[number];
type Row = [Expect, Expect, Expect, Expect, Expect, Expect, Expect];

const FIXTURES: Record<LobbyPhase, () => LobbyState> = {
  gathering: gatheringLobby,
  drafting: draftingLobby,
  ready_check: readyCheckLobby,
  live: liveLobby,
  ended: endedLobby,
  cancelled: cancelledLobby,
};

function roleActor(state: LobbyState, role: Role) {
  switch (role) {
    case 'host': return actorIn(state, HOST);
    case 'red captain': return actorIn(state, RED_CAP);
    case 'blu captain': return actorIn(state, BLU_CAP);
    case 'seated player': return actorIn(state, SEATED);
    case 'pool player': return actorIn(state, POOLED);
    case 'outsider': return actor(OUTSIDER);
    case 'banned user': return actor(BANNED, { banned: true });
  }
}

const all = (e: Expect): Row => [e, e, e, e, e, e, e];
const CLOSED = { ended: all('409'), cancelled: all('409') };

const COMMANDS: Record<LobbyCommandType, { command: (actorId: number) => LobbyCommand; rows: Record<LobbyPhase, Row> }> = {
  join: {
    command: () => ({ type: 'join' }),
    rows: {
      // Every fixture is full (12 of 12): an outsider finds no room (membership.test.ts joins short lobbies).
      gathering: ['409', '409', '409', '409', '409', '409', '403'],
      drafting: ['409', '409', '409', '409', '409', '409', '403'],
      ready_check: ['409', '409', '409', '409', '409', '409', '403'],
      live: ['409', '409', '409', '409', '409', '409', '403'],
      ...CLOSED,
    },
  },
  'party-join': {
    command: (id) => ({ type: 'party-join', members: [actor(id, { banned: id === BANNED }), actor(OUTSIDER_2)] }),
    rows: {
      // Every fixture is full (12 of 12): an outsider finds no room (membership.test.ts joins short lobbies).
      gathering: ['409', '409', '409', '409', '409', '409', '403'],
      drafting: ['409', '409', '409', '409', '409', '409', '403'],
      ready_check: ['409', '409', '409', '409', '409', '409', '403'],
      live: ['409', '409', '409', '409', '409', '409', '403'],
      ...CLOSED,
    },
  },
  leave: {
    command: () => ({ type: 'leave' }),
    rows: {
      gathering: ['ok', 'ok', 'ok', 'ok', 'ok', '409', '409'],
      drafting: ['ok', 'ok', 'ok', 'ok', 'ok', '409', '409'],
      ready_check: ['ok', 'ok', 'ok', 'ok', 'ok', '409', '409'],
      live: all('409'),
      ...CLOSED,
    },
  },
  kick: {
    command: () => ({ type: 'kick', userId: SEATED }),
    rows: {
      gathering: ['ok', '403', 'ok', '403', '403', '403', '403'],
      drafting: ['ok', '403', 'ok', '403', '403', '403', '403'],
      ready_check: ['ok', '403', 'ok', '403', '403', '403', '403'],
      live: ['409', '409', '409', '403', '403', '403', '403'],
      ...CLOSED,
    },
  },
  'set-captain': {
    command: () => ({ type: 'set-captain', userId: POOLED, team: 'blu' }),
    rows: {
      gathering: ['ok', '403', '403', '403', '403', '403', '403'],
      drafting: ['ok', '403', '403', '403', '403', '403', '403'],
      ready_check: ['409', '403', '403', '403', '403', '403', '403'],
      live: ['409', '403', '403', '403', '403', '403', '403'],
      ...CLOSED,
    },
  },
  'start-draft': {
    command: () => ({ type: 'start-draft' }),
    rows: {
      gathering: ['ok', '403', '403', '403', '403', '403', '403'],
      drafting: ['409', '403', '403', '403', '403', '403', '403'],
      ready_check: ['409', '403', '403', '403', '403', '403', '403'],
      live: ['409', '403', '403', '403', '403', '403', '403'],
      ...CLOSED,
    },
  },
  pick: {
    command: () => ({ type: 'pick', userId: POOLED }),
    rows: {
      gathering: ['403', '409', '409', '403', '403', '403', '403'],
      drafting: ['403', 'ok', '409', '403', '403', '403', '403'],
      ready_check: ['403', '409', '409', '403', '403', '403', '403'],
      live: ['403', '409', '409', '403', '403', '403', '403'],
      ...CLOSED,
    },
  },
  unpick: {
    command: () => ({ type: 'unpick', userId: 10 }),
    rows: {
      gathering: ['403', '409', '409', '403', '403', '403', '403'],
      drafting: ['403', '409', 'ok', '403', '403', '403', '403'],
      ready_check: ['403', '409', '409', '403', '403', '403', '403'],
      live: ['403', '409', '409', '403', '403', '403', '403'],
      ...CLOSED,
    },
  },
  'drop-to-pool': {
    command: () => ({ type: 'drop-to-pool', userId: SEATED }),
    rows: {
      gathering: ['403', '409', '409', '403', '403', '403', '403'],
      drafting: ['403', 'ok', '403', '403', '403', '403', '403'],
      ready_check: ['403', 'ok', '403', '403', '403', '403', '403'],
      live: ['403', '409', '409', '403', '403', '403', '403'],
      ...CLOSED,
    },
  },
  'pick-slot': {
    command: () => ({ type: 'pick-slot', team: 'red', index: 5 }),
    rows: {
      gathering: ['403', 'ok', '403', 'ok', '403', '403', '403'],
      drafting: ['403', 'ok', '403', 'ok', '403', '403', '403'],
      ready_check: ['409', '409', '403', '409', '403', '403', '403'],
      live: ['409', '409', '403', '409', '403', '403', '403'],
      ...CLOSED,
    },
  },
  'set-class': {
    command: () => ({ type: 'set-class', class: 'pyro' }),
    rows: {
      gathering: ['409', 'ok', 'ok', 'ok', '409', '409', '409'],
      drafting: ['409', 'ok', 'ok', 'ok', '409', '409', '409'],
      ready_check: ['ok', 'ok', 'ok', 'ok', 'ok', '409', '409'],
      live: ['ok', 'ok', 'ok', 'ok', 'ok', '409', '409'],
      ...CLOSED,
    },
  },
  'vote-map': {
    command: () => ({ type: 'vote-map', map: 'cp_process_final' }),
    rows: {
      gathering: ['ok', 'ok', 'ok', 'ok', 'ok', '403', '403'],
      drafting: ['ok', 'ok', 'ok', 'ok', 'ok', '403', '403'],
      ready_check: ['ok', 'ok', 'ok', 'ok', 'ok', '403', '403'],
      live: ['409', '409', '409', '409', '409', '403', '403'],
      ...CLOSED,
    },
  },
  ready: {
    command: () => ({ type: 'ready' }),
    rows: {
      gathering: ['403', '409', '409', '409', '403', '403', '403'],
      drafting: ['403', 'ok', 'ok', 'ok', '403', '403', '403'],
      ready_check: ['ok', 'ok', 'ok', 'ok', 'ok', '403', '403'],
      live: ['409', '409', '409', '409', '409', '403', '403'],
      ...CLOSED,
    },
  },
  'keep-ready': {
    command: () => ({ type: 'keep-ready' }),
    rows: {
      gathering: ['403', '409', '409', '409', '403', '403', '403'],
      drafting: ['403', '409', '409', '409', '403', '403', '403'],
      ready_check: ['409', '409', '409', '409', '409', '403', '403'],
      live: ['409', '409', '409', '409', '409', '403', '403'],
      ...CLOSED,
    },
  },
  'force-start': {
    command: () => ({ type: 'force-start' }),
    rows: {
      gathering: ['409', '403', '403', '403', '403', '403', '403'],
      drafting: ['409', '403', '403', '403', '403', '403', '403'],
      ready_check: ['ok', '403', '403', '403', '403', '403', '403'],
      live: ['409', '403', '403', '403', '403', '403', '403'],
      ...CLOSED,
    },
  },
  report: {
    command: () => ({ type: 'report', scoreRed: 3, scoreBlu: 1 }),
    rows: {
      gathering: ['409', '409', '409', '403', '403', '403', '403'],
      drafting: ['409', '409', '409', '403', '403', '403', '403'],
      ready_check: ['409', '409', '409', '403', '403', '403', '403'],
      live: ['ok', 'ok', 'ok', '403', '403', '403', '403'],
      ...CLOSED,
    },
  },
  cancel: {
    command: () => ({ type: 'cancel' }),
    rows: {
      gathering: ['ok', '403', '403', '403', '403', '403', '403'],
      drafting: ['ok', '403', '403', '403', '403', '403', '403'],
      ready_check: ['ok', '403', '403', '403', '403', '403', '403'],
      live: ['ok', '403', '403', '403', '403', '403', '403'],
      ...CLOSED,
    },
  },
  'record-match': {
    command: () => ({ type: 'record-match', matchId: 7 }),
    rows: {
      gathering: all('409'),
      drafting: all('409'),
      ready_check: all('409'),
      live: all('409'),
      ended: all('ok'),
      cancelled: all('409'),
    },
  },
  tick: {
    command: () => ({ type: 'tick' }),
    rows: {
      gathering: all('same'),
      drafting: all('same'),
      ready_check: all('same'),
      live: all('same'),
      ended: all('same'),
      cancelled: all('same'),
    },
  },
};

const KIND: Record<string, string> = { '400': 'invalid', '403': 'forbidden', '404': 'not_found', '409': 'conflict' };

const cases = Object.entries(COMMANDS).flatMap(([type, { command, rows }]) =>
  (Object.keys(FIXTURES) as LobbyPhase[]).flatMap((phase) =>
    ROLES.map((role, i) => ({ type, phase, role, expected: rows[phase][i], command })),
  ),
);

const fixtures = Object.fromEntries(Object.entries(FIXTURES).map(([phase, make]) => [phase, make()])) as Record<LobbyPhase, LobbyState>;

describe('every command in every phase for every role', () => {
  it('starts from fixtures in the phase they are named for', () => {
    for (const [phase, state] of Object.entries(fixtures)) expect(state.phase).toBe(phase);
  });

  it.each(cases)('$type in $phase by the $role: $expected', ({ phase, role, expected, command }) => {
    const state = fixtures[phase];
    const who = roleActor(state, role);
    const out = attempt(state, command(who.id), who, T0 + 1_000);
    if (expected === 'ok') {
      expect(out.ok ? 'ok' : `${out.error.kind}: ${out.error.message}`).toBe('ok');
      if (out.ok) expect(out.state.version).toBe(state.version + 1);
    } else if (expected === 'same') {
      expect(out.ok && out.state).toBe(state);
    } else {
      expect(out.ok ? 'ok' : out.error.kind).toBe(KIND[expected]);
    }
  });
});
