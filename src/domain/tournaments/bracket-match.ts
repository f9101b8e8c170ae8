/**
 * The one match shape every bracket kind is built from (the brackets-manager model flattened:
 * stage, round, match, two opponents). A slot is either seeded (`source` null, the team written at
 * generation, null for an empty seat) or fed by another match's winner or loser. Everything a
 * reader sees (teams, status, winner) follows from the seeds, the sources and the recorded
 * results; `settleBracket` derives it, so a correction anywhere is one recomputation.
 */
export type TeamId = number;

export type TournamentKind = 'single_elimination' | 'double_elimination' | 'round_robin' | 'swiss';

/** Which part of a tournament a match belongs to; elimination stages refuse draws. */
export type StageKind = 'single_elimination' | 'winners' | 'losers' | 'grand_final' | 'round_robin' | 'swiss';

export type MatchStatus = 'locked' | 'waiting' | 'ready' | 'reported' | 'confirmed' | 'disputed' | 'bye';

/** Where a match stands in its report/confirm flow, independent of whether its teams are known. */
export type MatchFlow = 'open' | 'reported' | 'disputed' | 'confirmed';

export type Forfeit = 'home' | 'away' | 'both';

export interface SlotSource {
  match: string;
  take: 'winner' | 'loser';
}

export interface MatchResult {
  homeScore: number;
  awayScore: number;
  forfeit: Forfeit | null;
}

export interface BracketMatch {
  /** Stable within its tournament ("W2.1", "L3.2", "GF", "R4.3", "S2.5"); sources name it. */
  key: string;
  stage: StageKind;
  round: number;
  number: number;
  homeSource: SlotSource | null;
  awaySource: SlotSource | null;
  homeTeamId: TeamId | null;
  awayTeamId: TeamId | null;
  status: MatchStatus;
  flow: MatchFlow;
  result: MatchResult | null;
  winnerTeamId: TeamId | null;
  reportedByTeamId: TeamId | null;
  disputeReason: string | null;
}

export const ELIMINATION_STAGES: ReadonlySet<StageKind> = new Set(['single_elimination', 'winners', 'losers', 'grand_final']);

export function isEliminationStage(stage: StageKind): boolean {
  return ELIMINATION_STAGES.has(stage);
}

/** A match as generated: its seats and sources set, nothing played. */
export function newMatch(
  key: string,
  stage: StageKind,
  round: number,
  number: number,
  home: { team?: TeamId | null; source?: SlotSource | null },
  away: { team?: TeamId | null; source?: SlotSource | null },
): BracketMatch {
  return {
    key,
    stage,
    round,
    number,
    homeSource: home.source ?? null,
    awaySource: away.source ?? null,
    homeTeamId: home.team ?? null,
    awayTeamId: away.team ?? null,
    status: 'locked',
    flow: 'open',
    result: null,
    winnerTeamId: null,
    reportedByTeamId: null,
    disputeReason: null,
  };
}

/** Smallest power of two that holds `count` seats (at least 2). */
export function bracketSize(count: number): number {
  let size = 2;
  while (size < count) size *= 2;
  return size;
}
