import { READY_CHECK_MS } from './deadlines';
import { allSlotsFilled, everyoneReady } from './lobby-membership';
import { TEAMS, type LobbyState } from './lobby-state';

/* Phase moves shared by several rules; all in place on a draft. */

export function clearReadyFlags(draft: LobbyState): void {
  for (const team of TEAMS) for (const slot of draft.teams[team]) slot.readyUntil = null;
}

/** A ready check loses a player: the draft resumes and everybody must ready again later. */
export function reopenDraft(draft: LobbyState): void {
  draft.phase = 'drafting';
  draft.readyCheckDeadline = null;
  clearReadyFlags(draft);
}

/** Drafting with both teams full becomes a ready check with a fresh deadline. */
export function startReadyCheckIfFull(draft: LobbyState, now: number): void {
  if (draft.phase !== 'drafting' || !allSlotsFilled(draft)) return;
  draft.phase = 'ready_check';
  draft.readyCheckDeadline = now + READY_CHECK_MS;
  clearReadyFlags(draft);
}

export function goLive(draft: LobbyState, now: number): void {
  draft.phase = 'live';
  draft.startedAt = now;
  draft.readyCheckDeadline = null;
  // Flags mean nothing once live; clearing them keeps the view and nextDeadline quiet.
  clearReadyFlags(draft);
}

export function goLiveIfEveryoneReady(draft: LobbyState, now: number): void {
  if ((draft.phase === 'drafting' || draft.phase === 'ready_check') && everyoneReady(draft, now)) goLive(draft, now);
}
