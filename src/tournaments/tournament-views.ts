import type { BracketView, TournamentMatchView, TournamentView } from '../../schema/tournaments';
import type { EntryRecord, StoredMatch, TournamentRecord } from '../db/tournament-repository';
import { effectiveStatus, type StandingRow, type StageKind } from '../domain/tournaments';

export function toTournamentView(t: TournamentRecord, entries: readonly EntryRecord[], now: Date): TournamentView {
  return {
    id: t.id,
    name: t.name,
    format: t.format as TournamentView['format'],
    kind: t.kind,
    status: effectiveStatus(t, now),
    max_teams: t.maxTeams,
    best_of: t.bestOf,
    swiss_rounds: t.swissRounds,
    starts_at: t.startsAt.toISOString(),
    check_in_minutes: t.checkInMinutes,
    roster_locked: t.rosterLocked,
    entries: entries.filter((e) => e.tournamentId === t.id).map(toEntryView),
    entry_fee: t.entryFee,
    ...(t.entryFee ? { prizes: t.prizes ?? [], house_percent: t.housePercent ?? 0 } : {}),
    created_at: t.createdAt.toISOString(),
    version: t.version,
  };
}

export function toEntryView(e: EntryRecord): TournamentView['entries'][number] {
  return {
    team: { id: e.team.id, name: e.team.name, tag: e.team.tag, leader_id: e.team.leaderId, member_count: e.team.memberCount },
    seed: e.seed,
    checked_in: e.checkedIn,
    status: e.status,
    final_rank: e.finalRank,
  };
}

export function toMatchView(m: StoredMatch): TournamentMatchView {
  return {
    id: m.id,
    round: m.round,
    number: m.number,
    home: { team_id: m.homeTeamId, score: m.result?.homeScore ?? null },
    away: { team_id: m.awayTeamId, score: m.result?.awayScore ?? null },
    status: m.status,
    winner_team_id: m.winnerTeamId,
    reported_by_team_id: m.reportedByTeamId,
    lobby_code: m.lobbyCode,
  };
}

const STAGE_ORDER: readonly StageKind[] = ['single_elimination', 'winners', 'losers', 'grand_final', 'round_robin', 'swiss'];

/** Matches grouped by stage, then by round, in play order. */
export function toBracketView(matches: readonly StoredMatch[]): BracketView {
  const stages: BracketView['stages'] = [];
  for (const stage of STAGE_ORDER) {
    const mine = matches.filter((m) => m.stage === stage);
    if (mine.length === 0) continue;
    const rounds = new Map<number, TournamentMatchView[]>();
    for (const match of mine) rounds.set(match.round, [...(rounds.get(match.round) ?? []), toMatchView(match)]);
    stages.push({
      id: stage,
      kind: stage,
      rounds: [...rounds.entries()].sort(([a], [b]) => a - b).map(([number, list]) => ({ number, matches: list })),
    });
  }
  return { stages };
}

export function toStandingView(row: StandingRow, names: ReadonlyMap<number, string>) {
  return {
    rank: row.rank,
    team_id: row.teamId,
    name: names.get(row.teamId) ?? '',
    wins: row.wins,
    losses: row.losses,
    draws: row.draws,
    points: row.points,
    score_diff: row.scoreDiff,
    ...(row.buchholz === null ? {} : { buchholz: row.buchholz }),
  };
}
