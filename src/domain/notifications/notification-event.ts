import type { NotificationEventType } from '../../../schema/notifications';
import type { LobbyState } from '../lobby';
import { lobbySummary, voteCounts } from '../lobby/lobby-view';

/** What a lobby event says: enough for a message without reading anything else. */
export interface LobbyNotice {
  code: string;
  name: string;
  format: string;
  /** The map leading the vote (the pool's first on a tie), null before anyone voted. */
  map: string | null;
  region: string | null;
  players: number;
  slots_total: number;
  /** Places still free in the teams (players needed). */
  players_needed: number;
  score: { red: number; blu: number } | null;
}

/** Tournament events come from the tournaments area through the outbox port; their words are its own. */
export interface TournamentNotice {
  tournament_id: number;
  name: string;
  format?: string;
  /** single_elimination, swiss... */
  kind?: string;
  /** The teams: all of them on start, the two of the match on match_ready. */
  teams?: string[];
  /** The match's key in the bracket ("W2.1") on match_ready. */
  match?: string;
  /** The winner's name on completed. */
  champion?: string;
  /** "Round 2: Froyotech vs Ascent", "Winner: Froyotech"... */
  detail?: string;
}

export interface AnnouncementNotice {
  id: number;
  title: string;
  body: string;
  level: string;
  starts_at: string;
}

/** An event may wait: it is delivered no earlier than `dueAt` (a scheduled announcement's window opening). */
export type DueEvent = NotificationEvent & { dueAt?: Date };

export type NotificationEvent =
  | { type: 'lobby.created' | 'lobby.needs_players' | 'lobby.live' | 'lobby.ended'; key: string; payload: LobbyNotice }
  | { type: 'tournament.started' | 'tournament.match_ready' | 'tournament.completed'; key: string; payload: TournamentNotice }
  | { type: 'announcement.published'; key: string; payload: AnnouncementNotice };

export type LobbyEventType = Extract<NotificationEventType, `lobby.${string}`>;

/** A gathering lobby first reaching this many free places asks for players. */
export const NEEDS_PLAYERS_AT = 2;

export function lobbyNotice(state: LobbyState): LobbyNotice {
  const summary = lobbySummary(state);
  const counts = Object.entries(voteCounts(state));
  const leading = counts.reduce<[string, number] | null>((best, entry) => (entry[1] > 0 && (best === null || entry[1] > best[1]) ? entry : best), null);
  return {
    code: state.code,
    name: state.name,
    format: state.format,
    map: leading?.[0] ?? null,
    region: state.region,
    players: summary.players,
    slots_total: summary.slots_total,
    players_needed: Math.max(0, summary.slots_total - summary.players),
    score: state.scoreRed !== null && state.scoreBlu !== null ? { red: state.scoreRed, blu: state.scoreBlu } : null,
  };
}

/**
 * The events a stored lobby state stands for. Each has a key naming the lobby and the moment
 * ("lobby.live:AB12"), and the outbox keeps one event per key, so saving the same state again,
 * or a later state of the same phase, adds nothing: the event is the first save that shows it.
 */
export function lobbyEvents(state: LobbyState): NotificationEvent[] {
  const types: LobbyEventType[] = [];
  const notice = lobbyNotice(state);
  if (state.phase === 'gathering') {
    types.push('lobby.created');
    if (notice.players_needed > 0 && notice.players_needed <= NEEDS_PLAYERS_AT) types.push('lobby.needs_players');
  }
  if (state.phase === 'live') types.push('lobby.live');
  if (state.phase === 'ended') types.push('lobby.ended');
  return types.map((type) => ({ type, key: `${type}:${state.code}`, payload: notice }));
}

/** A new announcement; keyed by its id, so it is announced once. */
export function announcementEvent(a: AnnouncementNotice): NotificationEvent {
  return { type: 'announcement.published', key: `announcement.published:${a.id}`, payload: { id: a.id, title: a.title, body: a.body, level: a.level, starts_at: a.starts_at } };
}
