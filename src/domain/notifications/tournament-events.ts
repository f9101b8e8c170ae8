import type { BracketMatch, TeamId } from '../tournaments/bracket-match';
import type { NotificationEvent, TournamentNotice } from './notification-event';

/** What the events need to know of the tournament itself. */
export interface TournamentFacts {
  id: number;
  name: string;
  format: string;
  kind: string;
}

/** One change of a tournament's bracket, as its write path sees it. */
export interface BracketChange {
  tournament: TournamentFacts;
  /** The matches before the change: empty when the change is the start (the bracket's generation). */
  before: readonly BracketMatch[];
  after: readonly BracketMatch[];
  /** Set when this change completes the tournament (nothing left to play): the team ranked first. */
  champion: TeamId | null;
  teamName(id: TeamId): string;
}

/** A match both of whose teams are known and that is to be played (not a bye, not decided). */
const isReady = (m: BracketMatch): boolean => m.status === 'ready' && m.homeTeamId !== null && m.awayTeamId !== null;

const stageWords: Partial<Record<BracketMatch['stage'], string>> = { losers: 'Losers round', grand_final: 'Grand final' };

/**
 * The events one bracket change produces, pure: `tournament.started` when the bracket was just
 * generated, `tournament.match_ready` for every match ready after the change that was not before,
 * `tournament.completed` with the champion. The keys name the tournament (and the match), and the
 * outbox keeps one event per key, so a ready match is announced once even if a correction takes
 * it back and forth, and a tournament reopened by a correction does not complete twice.
 */
export function tournamentEvents(change: BracketChange): NotificationEvent[] {
  const { tournament: t, before, after, champion, teamName } = change;
  const base: TournamentNotice = { tournament_id: t.id, name: t.name, format: t.format, kind: t.kind };
  const events: NotificationEvent[] = [];
  if (before.length === 0 && after.length > 0) {
    const teams = [...new Set(after.flatMap((m) => [m.homeTeamId, m.awayTeamId]).filter((id): id is TeamId => id !== null))];
    events.push({
      type: 'tournament.started',
      key: `tournament.started:${t.id}`,
      payload: { ...base, teams: teams.map(teamName), detail: `${teams.length} teams` },
    });
  }
  const wasReady = new Set(before.filter(isReady).map((m) => m.key));
  for (const m of after) {
    if (!isReady(m) || wasReady.has(m.key)) continue;
    const home = teamName(m.homeTeamId!);
    const away = teamName(m.awayTeamId!);
    const round = m.stage === 'grand_final' ? 'Grand final' : `${stageWords[m.stage] ?? 'Round'} ${m.round}`;
    events.push({
      type: 'tournament.match_ready',
      key: `tournament.match_ready:${t.id}:${m.key}`,
      payload: { ...base, match: m.key, teams: [home, away], detail: `${round}: ${home} vs ${away}` },
    });
  }
  if (champion !== null) {
    const name = teamName(champion);
    events.push({
      type: 'tournament.completed',
      key: `tournament.completed:${t.id}`,
      payload: { ...base, champion: name, detail: `Winner: ${name}` },
    });
  }
  return events;
}
