import { captainOf, slotOf } from './lobby-membership';
import { memberKey, type LobbyState, type Team } from './lobby-state';

/*
 * In-place moves on a draft copy of the state. Rules clone once, move people around with these,
 * and the dispatcher decides afterwards whether anything changed.
 */

/** Seat in the team's first free slot; false when the team is full. */
export function seatFirstFree(draft: LobbyState, userId: number, team: Team): boolean {
  const slot = draft.teams[team].find((s) => s.userId === null);
  if (!slot) return false;
  slot.userId = userId;
  slot.readyUntil = null;
  return true;
}

export function removeFromPool(draft: LobbyState, userId: number): void {
  draft.pool = draft.pool.filter((id) => id !== userId);
}

export function forgetPicks(draft: LobbyState, userId: number): void {
  draft.picks = draft.picks.filter((p) => p.userId !== userId);
}

/** Empty the user's slot, drop their captaincy and their place in the draft history. */
export function unseat(draft: LobbyState, userId: number): void {
  const slot = slotOf(draft, userId);
  if (slot) {
    slot.userId = null;
    slot.readyUntil = null;
  }
  const captaincy = captainOf(draft, userId);
  if (captaincy) draft.captains[captaincy] = null;
  forgetPicks(draft, userId);
}

/** Seated player back to the end of the free-agent pool. */
export function returnToPool(draft: LobbyState, userId: number): void {
  unseat(draft, userId);
  removeFromPool(draft, userId);
  draft.pool.push(userId);
}

/** Take the user out of the lobby altogether (leave, kick). Their profile stays for history. */
export function removeMember(draft: LobbyState, userId: number): void {
  unseat(draft, userId);
  removeFromPool(draft, userId);
  delete draft.votes[memberKey(userId)];
}

/** Move a seated user to a slot (their ready flag travels with them). */
export function moveToSlot(draft: LobbyState, userId: number, team: Team, index: number): void {
  const from = slotOf(draft, userId);
  const readyUntil = from?.readyUntil ?? null;
  if (from) {
    from.userId = null;
    from.readyUntil = null;
  }
  const to = draft.teams[team][index];
  to.userId = userId;
  to.readyUntil = readyUntil;
}
