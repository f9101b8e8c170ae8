import { LOG_STATUSES } from '../../../schema/server-vocabulary';
import type { LobbyDetail } from '../../../schema/lobby';

export interface RosterPlayer {
  user_id: number;
  platform_id: string;
  username: string;
  team: 'red' | 'blu';
  class: string;
}

/** The map a live lobby plays: the most votes, ties to the earlier map of the pool, no votes to the first. */
export function chosenMap(lobby: Pick<LobbyDetail, 'map_pool' | 'votes'>): string | null {
  let best: string | null = null;
  for (const map of lobby.map_pool) if (best === null || (lobby.votes[map] ?? 0) > (lobby.votes[best] ?? 0)) best = map;
  return best;
}

/** Who the server should let in, on which team and class: every seated player. */
export function rosterOf(lobby: Pick<LobbyDetail, 'teams'>): RosterPlayer[] {
  const players: RosterPlayer[] = [];
  for (const team of ['red', 'blu'] as const) {
    for (const slot of lobby.teams[team]) {
      if (!slot.user) continue;
      players.push({ user_id: slot.user.id, platform_id: slot.user.platform_id, username: slot.user.username, team, class: slot.class });
    }
  }
  return players;
}

/**
 * The console lines that set a reserved server up for a lobby that went live: the voted map, the
 * reservation's config preset, its password, and the plugin fetching the roster (`who`).
 */
export function setupCommands(map: string | null, preset: string, serverPassword: string | null): string[] {
  return [
    ...(map ? [`changelevel ${map}`] : []),
    `exec ${preset}`,
    `sv_password "${serverPassword ?? ''}"`,
    'sm_league_sync_roster',
  ];
}

export { LOG_STATUSES };
export type LogStatus = (typeof LOG_STATUSES)[number];

/** No log ten minutes after the upload was asked for: failed. */
export const LOG_UPLOAD_TIMEOUT_MS = 10 * 60_000;

/** The log status as of `now`: an upload that outlived its window has failed, whether or not a step wrote it yet. */
export function logStatusAt(row: { status: LogStatus; uploadingAt: number | null }, now: number): LogStatus {
  if (row.status === 'uploading' && row.uploadingAt !== null && now - row.uploadingAt >= LOG_UPLOAD_TIMEOUT_MS) return 'failed';
  return row.status;
}
