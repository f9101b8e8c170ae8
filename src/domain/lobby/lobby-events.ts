import type { LobbyPhase, LobbyState } from './lobby-state';
import { membershipChange } from './lobby-membership';

/** What the engine publishes, persists and schedules from. */
export type LobbyEvent =
  | { type: 'lobby_created'; code: string; hostId: number }
  | { type: 'phase_changed'; from: LobbyPhase; to: LobbyPhase }
  | { type: 'ready_check_started'; deadline: number }
  /** Users who entered or left the open membership (drives the user -> lobby index). */
  | { type: 'members_changed'; joined: number[]; left: number[] }
  | { type: 'player_kicked'; userId: number; by: number }
  | { type: 'match_reported'; scoreRed: number; scoreBlu: number }
  | { type: 'match_recorded'; matchId: number };

/**
 * The events any change implies, found by comparing before and after rather than by each rule,
 * so a settle folded into a command is reported too.
 */
export function impliedEvents(before: LobbyState, after: LobbyState): LobbyEvent[] {
  const events: LobbyEvent[] = [];
  if (before.phase !== after.phase) events.push({ type: 'phase_changed', from: before.phase, to: after.phase });
  if (after.phase === 'ready_check' && after.readyCheckDeadline !== null && after.readyCheckDeadline !== before.readyCheckDeadline) {
    events.push({ type: 'ready_check_started', deadline: after.readyCheckDeadline });
  }
  const { joined, left } = membershipChange(before, after);
  if (joined.length > 0 || left.length > 0) events.push({ type: 'members_changed', joined, left });
  return events;
}
