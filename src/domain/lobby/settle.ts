import { cloneDocument } from '../document-clone';
import { everyoneReady, isReady } from './lobby-membership';
import { goLive, reopenDraft } from './phase-transitions';
import { returnToPool } from './seating';
import { TEAMS, type LobbyState } from './lobby-state';

/**
 * Apply what the clock alone decides: a ready check past its deadline sends every seated player
 * whose flag is off back to the pool (red slots first, by index) and resumes the draft.
 * Returns the same object when nothing is due, so callers can tell by identity. Idempotent.
 */
export function settle(state: LobbyState, now: number): LobbyState {
  if (state.phase !== 'ready_check' || state.readyCheckDeadline === null || now < state.readyCheckDeadline) return state;
  const draft = cloneDocument(state);
  // Unreachable through the rules (the last ready goes live at once), but never leave a lobby stuck.
  if (everyoneReady(draft, now)) {
    goLive(draft, now);
    return draft;
  }
  const unready = TEAMS.flatMap((team) =>
    draft.teams[team].filter((s) => s.userId !== null && !isReady(s, now)).map((s) => s.userId as number),
  );
  for (const userId of unready) returnToPool(draft, userId);
  reopenDraft(draft);
  return draft;
}
