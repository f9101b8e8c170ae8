import { isClosed, TEAMS, type LobbyState } from './lobby-state';

/** How long a ready flag lasts unless renewed by keep-ready. */
export const READY_FLAG_MS = 30_000;
/** How long a ready check waits before sending the unready back to the pool. */
export const READY_CHECK_MS = 60_000;

/**
 * The earliest moment at which the lobby would change with no command: the ready-check deadline
 * (returned even when already past, meaning "tick now") or the next ready flag to lapse.
 * Null when nothing is pending. The engine schedules a `tick` for it.
 */
export function nextDeadline(state: LobbyState, now: number): number | null {
  if (isClosed(state.phase) || state.phase === 'live') return null;
  const moments: number[] = [];
  if (state.phase === 'ready_check' && state.readyCheckDeadline !== null) moments.push(state.readyCheckDeadline);
  for (const team of TEAMS) {
    for (const slot of state.teams[team]) {
      if (slot.userId !== null && slot.readyUntil !== null && slot.readyUntil > now) moments.push(slot.readyUntil);
    }
  }
  return moments.length === 0 ? null : Math.min(...moments);
}
