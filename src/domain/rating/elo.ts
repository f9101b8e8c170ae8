/**
 * Team ELO. Each team is rated by its players' average; every player on a team gets the team's
 * expected score, and their own K: new players (fewer than 10 matches before this one) move faster.
 */
export type Team = 'red' | 'blu';

export interface RatedPlayer {
  userId: number;
  team: Team;
  elo: number;
  /** Matches played before this one. */
  matchesPlayed: number;
}

export interface RatingChange {
  userId: number;
  before: number;
  after: number;
}

export const PROVISIONAL_MATCHES = 10;
export const PROVISIONAL_K = 32;
export const ESTABLISHED_K = 16;

export function kFactor(matchesPlayed: number): number {
  return matchesPlayed < PROVISIONAL_MATCHES ? PROVISIONAL_K : ESTABLISHED_K;
}

/** The probability that a team rated `own` beats a team rated `opponent`. */
export function expectedScore(own: number, opponent: number): number {
  return 1 / (1 + 10 ** ((opponent - own) / 400));
}

/** 1 for a win, 0 for a loss, 0.5 for a draw, from red's point of view or blu's. */
export function actualScore(team: Team, scoreRed: number, scoreBlu: number): number {
  if (scoreRed === scoreBlu) return 0.5;
  const redWon = scoreRed > scoreBlu;
  return (team === 'red') === redWon ? 1 : 0;
}

export function rateMatch(players: readonly RatedPlayer[], scoreRed: number, scoreBlu: number): RatingChange[] {
  const averageRed = averageElo(players, 'red');
  const averageBlu = averageElo(players, 'blu');
  const expected: Record<Team, number> = {
    red: expectedScore(averageRed, averageBlu),
    blu: expectedScore(averageBlu, averageRed),
  };
  return players.map((player) => {
    const surprise = actualScore(player.team, scoreRed, scoreBlu) - expected[player.team];
    const change = Math.round(kFactor(player.matchesPlayed) * surprise);
    return { userId: player.userId, before: player.elo, after: player.elo + change };
  });
}

/** A team with no players is rated like the other one, so a one-sided report moves nobody by surprise. */
function averageElo(players: readonly RatedPlayer[], team: Team): number {
  const own = players.filter((p) => p.team === team);
  const pool = own.length > 0 ? own : players;
  if (pool.length === 0) return 0;
  return pool.reduce((sum, p) => sum + p.elo, 0) / pool.length;
}
