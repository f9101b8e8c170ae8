import { conflict, DomainError, fail, invalid, succeed, type Outcome } from '../domain-error';
import { cloneDocument } from '../document-clone';
import { ownKeyCount, sameState, sharedCopy } from '../structural-sharing';
import { dropToPool, pick, setCaptain, startDraft, unpick } from './draft-rules';
import type { Actor } from './lobby-actor';
import type { LobbyCommand, LobbyCommandType } from './lobby-commands';
import { impliedEvents, type LobbyEvent } from './lobby-events';
import type { LobbyRule } from './lobby-rule';
import { copyLobbyState, isClosed, type LobbyState } from './lobby-state';
import { voteMap } from './map-vote-rules';
import { cancel, recordMatch, report } from './match-rules';
import { join, kick, leave, partyJoin } from './membership-rules';
import { clearLapsedReadyFlags, forceStart, keepReady, ready } from './ready-rules';
import { settle } from './settle';
import { pickSlot, setClass } from './slot-rules';

const RULES: { [T in LobbyCommandType]: LobbyRule<T> } = {
  join,
  'party-join': partyJoin,
  leave,
  kick,
  'set-captain': setCaptain,
  'start-draft': startDraft,
  pick,
  unpick,
  'drop-to-pool': dropToPool,
  'pick-slot': pickSlot,
  'set-class': setClass,
  'vote-map': voteMap,
  ready,
  'keep-ready': keepReady,
  'force-start': forceStart,
  report,
  'record-match': recordMatch,
  cancel,
  tick: clearLapsedReadyFlags,
};

/** The parts of a lobby that are objects or arrays: the rest are copied with the draft's first level. */
type ObjectPart = 'captains' | 'teams' | 'pool' | 'mapPool' | 'votes' | 'picks' | 'profiles';
const EVERY_OBJECT_PART: readonly ObjectPart[] = ['captains', 'teams', 'pool', 'mapPool', 'votes', 'picks', 'profiles'];

/**
 * The object parts the commands run most change in place, so that their draft copies only those
 * (a vote copied and compared the whole lobby, a tenth of a command's CPU time, to change one
 * entry of `votes`). Every other command may change any part. The rule tests run every command on
 * deeply frozen states, so a rule that changes a part not listed here fails there, loudly.
 */
const CHANGED_IN_PLACE: Partial<Record<LobbyCommandType, readonly ObjectPart[]>> = {
  'vote-map': ['votes'],
  ready: ['teams'],
  'keep-ready': ['teams'],
  tick: ['teams'],
  'set-class': ['teams'],
  'pick-slot': ['teams'],
  join: ['pool', 'profiles'],
  'party-join': ['pool', 'profiles'],
};

/** Commands that still mean something on a closed lobby (they change nothing else). */
const AFTER_CLOSE: readonly LobbyCommandType[] = ['record-match', 'tick'];

function closedMessage(state: LobbyState, type: LobbyCommandType): string {
  if (state.phase === 'cancelled') return type === 'cancel' ? 'lobby already cancelled' : 'lobby is cancelled';
  if (type === 'report') return 'already reported';
  return 'lobby has ended';
}

/**
 * Apply one command at `now`: first the clock (settle), then the command's rule, as one change.
 * Success with a state equal to the input keeps the very same object and version and emits no
 * events (idempotent repeats, a tick with nothing due); any real change bumps version by exactly 1.
 * Closed lobbies refuse everything with 409 except the engine's record-match and tick.
 */
export function applyLobbyCommand(
  state: LobbyState,
  command: LobbyCommand,
  actor: Actor,
  now: number,
): Outcome<LobbyState, LobbyEvent> {
  const rule = RULES[command?.type] as LobbyRule<LobbyCommandType> | undefined;
  if (rule === undefined) return fail(invalid('unknown command'));
  const settled = settle(state, now);
  if (isClosed(settled.phase) && !AFTER_CLOSE.includes(command.type)) return fail(conflict(closedMessage(settled, command.type)));
  const draft = settled === state ? draftOf(state, CHANGED_IN_PLACE[command.type] ?? EVERY_OBJECT_PART) : settled;
  const result = rule(draft, command, actor, now);
  if (result instanceof DomainError) return fail(result);
  const next = sharingUnchanged(state, draft);
  if (next === null) return succeed(state, []);
  next.version = state.version + 1;
  return succeed(next, [...impliedEvents(state, next), ...result]);
}

/**
 * The copy a rule may change: its first level, and the object parts the rule changes in place.
 * The rules replace a member's profile (joining), never change one in place, so the profiles
 * record is copied and the profiles in it are shared: they are most of a lobby's objects. The
 * votes hold strings only, so one level is all of them.
 */
function draftOf(state: LobbyState, parts: readonly ObjectPart[]): LobbyState {
  const draft = copyLobbyState(state);
  for (const part of parts) (draft as Record<ObjectPart, unknown>)[part] = ONE_LEVEL.has(part) ? { ...(state[part] as object) } : cloneDocument(state[part]);
  return draft;
}

const ONE_LEVEL: ReadonlySet<ObjectPart> = new Set(['profiles', 'votes']);

/**
 * The draft as the next state, its top-level parts that the rule left equal being the previous
 * state's own objects (states are never changed in place: the rules work on a copy), or null when
 * nothing differs. Whoever compares the two states next (which parts to write, what the update
 * says) then finds the unchanged parts by identity instead of walking them again. Changed teams
 * keep their unchanged slots too (sharedCopy): a keep-ready changes one seat of twelve, and the
 * renderer keeps each seat's JSON by identity. Deeper sharing elsewhere cost a vote more than it
 * saved (a flat record of strings has nothing to share).
 */
function sharingUnchanged(state: LobbyState, draft: LobbyState): LobbyState | null {
  // The draft is this command's own object (draftOf, or what settle made): the unchanged parts are
  // put back in it. A new object built key by key grew its property store a few slots at a time
  // (3 KB a command in a heap profile).
  const next = draft as unknown as Record<string, unknown>;
  let changed = false;
  let parts = 0;
  for (const key in draft) {
    const part = key as keyof LobbyState;
    parts++;
    if (!Object.hasOwn(state, part)) {
      changed = true;
      continue;
    }
    const kept = part === 'teams' ? sharedCopy(state.teams, draft.teams) : sameState(state[part], draft[part]) ? state[part] : draft[part];
    next[key] = kept;
    changed ||= kept !== state[part];
  }
  return changed || parts !== ownKeyCount(state) ? (next as unknown as LobbyState) : null;
}
