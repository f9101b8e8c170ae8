import { conflict, forbidden, invalid, notFound } from '../domain-error';
import type { Actor } from './lobby-actor';
import { captainOf, freePlaces, isInLobby, seatedTeam } from './lobby-membership';
import { badUserId, isHost, type LobbyRule } from './lobby-rule';
import { memberKey, otherTeam, type LobbyPhase, type LobbyState } from './lobby-state';
import { reopenDraft } from './phase-transitions';
import { removeMember } from './seating';

/**
 * Newcomers may arrive until the match goes live, while there is room: a lobby admits at most its
 * format's slot count, pool and seats together. A draft that starts short takes latecomers into
 * the pool, and the captains pick them.
 */
const JOINABLE: readonly LobbyPhase[] = ['gathering', 'drafting', 'ready_check'];

/** Append to the pool and remember (or refresh) the profile. */
export function addToPool(draft: LobbyState, member: Actor): void {
  draft.pool.push(member.id);
  draft.profiles[memberKey(member.id)] = member.profile;
}

const inAnotherLobby = (state: LobbyState, actor: Actor): boolean =>
  actor.currentLobby !== null && actor.currentLobby !== state.code;

export const join: LobbyRule<'join'> = (draft, _command, actor) => {
  if (actor.banned) return forbidden('you are banned');
  if (!JOINABLE.includes(draft.phase)) return conflict('lobby is not accepting players');
  if (isInLobby(draft, actor.id)) return conflict('already in this lobby');
  if (inAnotherLobby(draft, actor)) return conflict('already in another lobby');
  if (freePlaces(draft) === 0) return conflict('lobby is full');
  addToPool(draft, actor);
  return [];
};

/** All or nothing: one member who may not join keeps the whole party out. */
export const partyJoin: LobbyRule<'party-join'> = (draft, command, actor) => {
  const members = command.members;
  if (!Array.isArray(members) || members.length === 0) return invalid('a party needs members');
  const ids = members.map((m) => m.id);
  if (new Set(ids).size !== ids.length) return invalid('party members must be distinct');
  if (!ids.includes(actor.id)) return invalid('the caller must be in the party');
  if (members.some((m) => m.banned)) return forbidden('a party member is banned');
  if (!JOINABLE.includes(draft.phase)) return conflict('lobby is not accepting players');
  if (members.some((m) => isInLobby(draft, m.id))) return conflict('a party member is already in this lobby');
  if (members.some((m) => inAnotherLobby(draft, m))) return conflict('a party member is already in another lobby');
  if (freePlaces(draft) < members.length) return conflict(`no room for the whole party: ${freePlaces(draft)} of ${members.length} places free`);
  for (const member of members) addToPool(draft, member);
  return [];
};

/** Removing a seated player breaks a ready check: the draft resumes. */
function takeOut(draft: LobbyState, userId: number): void {
  const wasSeated = seatedTeam(draft, userId) !== null;
  removeMember(draft, userId);
  if (wasSeated && draft.phase === 'ready_check') reopenDraft(draft);
}

/** The host may leave too; they stay host (so they can still cancel or kick). */
export const leave: LobbyRule<'leave'> = (draft, _command, actor) => {
  if (!isInLobby(draft, actor.id)) return conflict('not in this lobby');
  if (draft.phase === 'live') return conflict('cannot leave a live match');
  takeOut(draft, actor.id);
  return [];
};

/**
 * The host (and an admin: a ban takes the player out) kicks anyone but themselves; a captain only
 * a non-captain seated on the other team (so captains cannot empty each other's teams of their leaders).
 */
export const kick: LobbyRule<'kick'> = (draft, command, actor) => {
  const bad = badUserId(command.userId);
  if (bad) return bad;
  const overseer = isHost(draft, actor) || actor.isAdmin;
  const captainTeam = captainOf(draft, actor.id);
  if (!overseer && captainTeam === null) return forbidden('only the host or a captain may kick');
  if (draft.phase === 'live') return conflict('cannot kick during a live match');
  const target = command.userId;
  if (!isInLobby(draft, target)) return notFound('user is not in this lobby');
  if (overseer) {
    if (target === actor.id) return invalid('you cannot kick yourself');
  } else {
    if (seatedTeam(draft, target) !== otherTeam(captainTeam!)) return forbidden('wrong team');
    if (captainOf(draft, target) !== null) return forbidden('cannot kick a captain');
  }
  takeOut(draft, target);
  return [{ type: 'player_kicked', userId: target, by: actor.id }];
};
