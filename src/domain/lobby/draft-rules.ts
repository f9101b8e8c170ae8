import { conflict, forbidden, invalid, notFound } from '../domain-error';
import { draftTurn } from './draft-turn';
import { captainOf, isInLobby, isTeamFull, locate, seatedTeam } from './lobby-membership';
import { badUserId, isHost, type LobbyRule } from './lobby-rule';
import { isTeam, memberKey, otherTeam, TEAMS, type LobbyPhase, type LobbyState, type Team } from './lobby-state';
import { reopenDraft, startReadyCheckIfFull } from './phase-transitions';
import { removeFromPool, returnToPool, seatFirstFree, unseat } from './seating';

const CAPTAIN_PHASES: readonly LobbyPhase[] = ['gathering', 'drafting'];

/** Seat the user on `team` (from the pool or the other team) unless already there. */
function bringOnto(draft: LobbyState, userId: number, team: Team): boolean {
  if (seatedTeam(draft, userId) === team) return true;
  if (isTeamFull(draft, team)) return false;
  unseat(draft, userId);
  removeFromPool(draft, userId);
  return seatFirstFree(draft, userId, team);
}

/**
 * Host names a captain; the free side by default (red first). A replaced captain stays seated as a
 * player. Naming the current captain again changes nothing and succeeds.
 */
export const setCaptain: LobbyRule<'set-captain'> = (draft, command, actor, now) => {
  const bad = badUserId(command.userId);
  if (bad) return bad;
  if (command.team !== undefined && !isTeam(command.team)) return invalid('team must be red or blu');
  if (!isHost(draft, actor)) return forbidden('only the host may set captains');
  if (!CAPTAIN_PHASES.includes(draft.phase)) return conflict('captains can only change before the ready check');
  const target = command.userId;
  if (!isInLobby(draft, target)) return notFound('user is not in this lobby');
  const team = command.team ?? TEAMS.find((t) => draft.captains[t] === null);
  if (team === undefined) return conflict('both teams already have a captain');
  const current = captainOf(draft, target);
  if (current === team) return [];
  if (current === otherTeam(team)) return conflict('already captain of the other team');
  if (!bringOnto(draft, target, team)) return conflict('team is full');
  draft.captains[team] = target;
  startReadyCheckIfFull(draft, now);
  return [];
};

/** Highest rating first; the pool is in join order and the sort is stable, so earlier joiners win ties. */
function captainCandidates(draft: LobbyState): number[] {
  const elo = (id: number) => draft.profiles[memberKey(id)]?.elo ?? 0;
  return [...draft.pool].sort((a, b) => elo(b) - elo(a));
}

export const startDraft: LobbyRule<'start-draft'> = (draft, _command, actor, now) => {
  if (!isHost(draft, actor)) return forbidden('only the host may start the draft');
  if (draft.phase !== 'gathering') return conflict('the draft has already started');
  const missing = TEAMS.filter((t) => draft.captains[t] === null);
  const candidates = captainCandidates(draft);
  if (candidates.length < missing.length) return conflict('need two captains');
  for (const team of missing) {
    const captain = candidates.shift()!;
    removeFromPool(draft, captain);
    if (!seatFirstFree(draft, captain, team)) return conflict('need two captains');
    draft.captains[team] = captain;
  }
  draft.phase = 'drafting';
  startReadyCheckIfFull(draft, now);
  return [];
};

export const pick: LobbyRule<'pick'> = (draft, command, actor, now) => {
  const bad = badUserId(command.userId);
  if (bad) return bad;
  const team = captainOf(draft, actor.id);
  if (team === null) return forbidden('only captains may pick');
  if (draft.phase !== 'drafting') return conflict('not drafting');
  if (draftTurn(draft) !== team) return conflict('not your turn');
  const where = locate(draft, command.userId);
  if (where === null) return notFound('user is not in this lobby');
  if (where.at === 'slot') return conflict('already drafted');
  removeFromPool(draft, command.userId);
  seatFirstFree(draft, command.userId, team);
  draft.picks.push({ team, userId: command.userId, by: actor.id });
  startReadyCheckIfFull(draft, now);
  return [];
};

export const unpick: LobbyRule<'unpick'> = (draft, command, actor) => {
  const bad = badUserId(command.userId);
  if (bad) return bad;
  const team = captainOf(draft, actor.id);
  if (team === null) return forbidden('only captains may unpick');
  if (draft.phase !== 'drafting') return conflict('not drafting');
  const last = draft.picks[draft.picks.length - 1];
  const target = command.userId;
  if (!last || last.userId !== target || last.by !== actor.id || last.team !== team) {
    return conflict('can only unpick the last pick');
  }
  // Defensive: history entries are pruned whenever their player moves, so these should not happen.
  if (captainOf(draft, target) !== null) return conflict('cannot unpick a captain');
  if (seatedTeam(draft, target) !== team) return conflict('can only unpick the last pick');
  returnToPool(draft, target);
  return [];
};

export const dropToPool: LobbyRule<'drop-to-pool'> = (draft, command, actor) => {
  const bad = badUserId(command.userId);
  if (bad) return bad;
  const team = captainOf(draft, actor.id);
  if (team === null) return forbidden('only captains may drop players');
  if (draft.phase !== 'drafting' && draft.phase !== 'ready_check') return conflict('not drafting');
  const where = locate(draft, command.userId);
  if (where === null) return notFound('user is not in this lobby');
  if (where.at === 'pool') return conflict('user is not drafted');
  if (where.team !== team) return forbidden('wrong team');
  if (captainOf(draft, command.userId) !== null) return conflict('cannot drop a captain');
  returnToPool(draft, command.userId);
  if (draft.phase === 'ready_check') reopenDraft(draft);
  return [];
};
