import { isEliminationStage, type BracketMatch, type TeamId, type TournamentKind } from './bracket-match';

export interface StandingRow {
  rank: number;
  teamId: TeamId;
  wins: number;
  losses: number;
  draws: number;
  points: number;
  scoreDiff: number;
  buchholz: number | null;
}

export const WIN_POINTS = 3;
export const DRAW_POINTS = 1;

interface Tally {
  teamId: TeamId;
  seed: number;
  wins: number;
  losses: number;
  draws: number;
  scoreDiff: number;
  opponents: TeamId[];
  /** For elimination: how deep the team got before it was knocked out (Infinity while alive). */
  outAt: number;
}

function tallies(seeded: readonly TeamId[]): Map<TeamId, Tally> {
  return new Map(
    seeded.map((teamId, index) => [
      teamId,
      { teamId, seed: index + 1, wins: 0, losses: 0, draws: 0, scoreDiff: 0, opponents: [], outAt: Number.POSITIVE_INFINITY },
    ]),
  );
}

/** Depth of a match for ranking knocked-out teams: a later round ranks higher; the grand final last. */
function depthOf(match: BracketMatch): number {
  return match.stage === 'grand_final' ? 10_000 : match.round;
}

/**
 * Standings from the confirmed matches. Round robin and Swiss rank by points (then Buchholz for
 * Swiss, score difference, seed); elimination ranks by how far a team got, teams knocked out at
 * the same depth sharing a rank. A Swiss bye is a win without an opponent; an elimination bye is
 * no match at all.
 */
export function computeStandings(kind: TournamentKind, seeded: readonly TeamId[], matches: readonly BracketMatch[]): StandingRow[] {
  const table = tallies(seeded);
  const lastSeen = new Map<TeamId, BracketMatch>();
  for (const match of matches) {
    for (const team of [match.homeTeamId, match.awayTeamId]) if (team !== null) lastSeen.set(team, match);
    if (match.status === 'bye' && match.stage === 'swiss') {
      const team = table.get((match.homeTeamId ?? match.awayTeamId)!);
      if (team) team.wins += 1;
      continue;
    }
    if (match.status !== 'confirmed' || match.result === null) continue;
    const home = table.get(match.homeTeamId!);
    const away = table.get(match.awayTeamId!);
    if (!home || !away) continue;
    home.opponents.push(away.teamId);
    away.opponents.push(home.teamId);
    const diff = match.result.homeScore - match.result.awayScore;
    home.scoreDiff += diff;
    away.scoreDiff -= diff;
    if (match.winnerTeamId === home.teamId) [home.wins, away.losses] = [home.wins + 1, away.losses + 1];
    else if (match.winnerTeamId === away.teamId) [away.wins, home.losses] = [away.wins + 1, home.losses + 1];
    else if (match.result.forfeit === 'both') [home.losses, away.losses] = [home.losses + 1, away.losses + 1];
    else [home.draws, away.draws] = [home.draws + 1, away.draws + 1];
  }
  const points = (t: Tally) => t.wins * WIN_POINTS + t.draws * DRAW_POINTS;
  const buchholz = (t: Tally) => t.opponents.reduce((sum, id) => sum + points(table.get(id)!), 0);
  const rows = [...table.values()];
  const row = (t: Tally, rank: number, withBuchholz: boolean): StandingRow => ({
    rank, teamId: t.teamId, wins: t.wins, losses: t.losses, draws: t.draws, points: points(t), scoreDiff: t.scoreDiff,
    buchholz: withBuchholz ? buchholz(t) : null,
  });

  if (kind === 'single_elimination' || kind === 'double_elimination') {
    for (const t of rows) {
      const last = lastSeen.get(t.teamId);
      // Knocked out: the last match a team appears in is decided and it did not win it.
      if (last && isEliminationStage(last.stage) && last.status === 'confirmed' && last.winnerTeamId !== t.teamId) t.outAt = depthOf(last);
    }
    rows.sort((a, b) => b.outAt - a.outAt || b.wins - a.wins || a.seed - b.seed);
    return rows.map((t) => row(t, 1 + rows.filter((other) => other.outAt > t.outAt).length, false));
  }
  const swiss = kind === 'swiss';
  rows.sort((a, b) => points(b) - points(a) || (swiss ? buchholz(b) - buchholz(a) : 0) || b.scoreDiff - a.scoreDiff || a.seed - b.seed);
  return rows.map((t, index) => row(t, index + 1, swiss));
}
