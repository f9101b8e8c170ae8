import { conflict, forbidden } from '../domain-error';
import { READY_FLAG_MS } from './deadlines';
import { allSlotsFilled, isReady, slotOf } from './lobby-membership';
import { isHost, type LobbyRule } from './lobby-rule';
import { TEAMS, type LobbyState } from './lobby-state';
import { goLive, goLiveIfEveryoneReady } from './phase-transitions';

const canReady = (state: LobbyState): boolean => state.phase === 'drafting' || state.phase === 'ready_check';

/** Raise (or renew) the caller's flag for READY_FLAG_MS; the last flag needed takes the lobby live. */
export const ready: LobbyRule<'ready'> = (draft, _command, actor, now) => {
  const slot = slotOf(draft, actor.id);
  if (slot === null) return forbidden('not in a slot');
  if (!canReady(draft)) return conflict('no ready check in this phase');
  slot.readyUntil = now + READY_FLAG_MS;
  goLiveIfEveryoneReady(draft, now);
  return [];
};

/** Renewal only: a lapsed flag must be raised again with `ready`. */
export const keepReady: LobbyRule<'keep-ready'> = (draft, _command, actor, now) => {
  const slot = slotOf(draft, actor.id);
  if (slot === null) return forbidden('not in a slot');
  if (!canReady(draft)) return conflict('no ready check in this phase');
  if (!isReady(slot, now)) return conflict('ready flag expired');
  slot.readyUntil = now + READY_FLAG_MS;
  goLiveIfEveryoneReady(draft, now);
  return [];
};

export const forceStart: LobbyRule<'force-start'> = (draft, _command, actor, now) => {
  if (!isHost(draft, actor)) return forbidden('only the host may force the start');
  if (!canReady(draft)) return conflict('can only force the start while drafting or in the ready check');
  if (!allSlotsFilled(draft)) return conflict('teams are not full');
  goLive(draft, now);
  return [];
};

/**
 * The deadline tick: a flag that has run out is cleared, so its lapse is a change with its own
 * version like any other (watchers get versions strictly in order, never one version twice).
 */
export const clearLapsedReadyFlags: LobbyRule<'tick'> = (draft, _command, _actor, now) => {
  if (!canReady(draft)) return [];
  for (const team of TEAMS) {
    for (const slot of draft.teams[team]) if (slot.readyUntil !== null && slot.readyUntil <= now) slot.readyUntil = null;
  }
  return [];
};
