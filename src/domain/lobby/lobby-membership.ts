import { isClosed, TEAMS, type LobbyState, type Slot, type Team } from './lobby-state';

/** Where a user sits in a lobby: among the free agents, in a slot, or nowhere. */
export type Location = { at: 'pool' } | { at: 'slot'; team: Team; index: number } | null;

export function locate(state: LobbyState, userId: number): Location {
  if (state.pool.includes(userId)) return { at: 'pool' };
  for (const team of TEAMS) {
    const slot = state.teams[team].find((s) => s.userId === userId);
    if (slot) return { at: 'slot', team, index: slot.index };
  }
  return null;
}

export const isInLobby = (state: LobbyState, userId: number): boolean => locate(state, userId) !== null;

export function seatedTeam(state: LobbyState, userId: number): Team | null {
  const where = locate(state, userId);
  return where?.at === 'slot' ? where.team : null;
}

export function slotOf(state: LobbyState, userId: number): Slot | null {
  for (const team of TEAMS) {
    const slot = state.teams[team].find((s) => s.userId === userId);
    if (slot) return slot;
  }
  return null;
}

export function captainOf(state: LobbyState, userId: number): Team | null {
  if (state.captains.red === userId) return 'red';
  if (state.captains.blu === userId) return 'blu';
  return null;
}

export function seatedIds(state: LobbyState): number[] {
  const ids: number[] = [];
  for (const team of TEAMS) for (const slot of state.teams[team]) if (slot.userId !== null) ids.push(slot.userId);
  return ids;
}

export const filledCount = (state: LobbyState, team: Team): number =>
  state.teams[team].filter((s) => s.userId !== null).length;

export const isTeamFull = (state: LobbyState, team: Team): boolean => filledCount(state, team) === state.teams[team].length;

export const allSlotsFilled = (state: LobbyState): boolean => TEAMS.every((team) => isTeamFull(state, team));

/** The format's slot count, both teams: the most players a lobby admits, pool and seats together. */
export const capacity = (state: LobbyState): number => state.teams.red.length + state.teams.blu.length;

export const memberCount = (state: LobbyState): number => state.pool.length + seatedIds(state).length;

/** Places left before the lobby is full (never negative). */
export const freePlaces = (state: LobbyState): number => Math.max(0, capacity(state) - memberCount(state));

export const isReady = (slot: Slot, now: number): boolean => slot.readyUntil !== null && slot.readyUntil > now;

/** Every slot taken and every occupant's flag still on: the condition for going live. */
export const everyoneReady = (state: LobbyState, now: number): boolean =>
  allSlotsFilled(state) && TEAMS.every((team) => state.teams[team].every((s) => isReady(s, now)));

/**
 * Users who are "in" the lobby for the one-open-lobby rule: pool and seated while the lobby is
 * open, nobody once it ended or was cancelled. The engine diffs it to maintain its index.
 */
export const openMembers = (state: LobbyState): number[] => (isClosed(state.phase) ? [] : [...state.pool, ...seatedIds(state)]);

/** Who entered and who left the lobby's open membership from `before` to `after`. */
export function membershipChange(before: LobbyState, after: LobbyState): { joined: number[]; left: number[] } {
  // Open membership is a function of these three parts, and a change shares every part it left
  // equal with the state before (see applyLobbyCommand): a vote or a ready flag needs no sets built.
  if (before.phase === after.phase && before.pool === after.pool && before.teams === after.teams) return { joined: [], left: [] };
  const was = new Set(openMembers(before));
  const is = new Set(openMembers(after));
  return { joined: [...is].filter((id) => !was.has(id)), left: [...was].filter((id) => !is.has(id)) };
}
