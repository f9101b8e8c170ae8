import type { LedgerEntry } from './ledger-entry';

/** Points for a reported match (configuration): every player gets `played`, a winner `won` on top. */
export interface EarningRates {
  played: number;
  won: number;
}

/** The configuration's defaults (POINTS_MATCH_PLAYED, POINTS_MATCH_WON). */
export const DEFAULT_EARNING_RATES: EarningRates = { played: 10, won: 15 };

export interface MatchPlayerResult {
  userId: number;
  /** null for a draw. */
  won: boolean | null;
}

/** The ledger key of one player's earning from one match: the same match is never paid twice. */
export const matchSourceKey = (matchId: number, userId: number) => `match:${matchId}:user:${userId}`;

/** One ledger entry per player of the match; a rate of 0 pays nothing (no zero rows). */
export function matchEarnings(matchId: number, players: readonly MatchPlayerResult[], rates: EarningRates): LedgerEntry[] {
  return players.flatMap(({ userId, won }) => {
    const amount = rates.played + (won === true ? rates.won : 0);
    if (amount <= 0) return [];
    return [
      {
        userId,
        amount,
        kind: 'match' as const,
        reason: won === true ? `won match ${matchId}` : `played match ${matchId}`,
        actorId: null,
        sourceKey: matchSourceKey(matchId, userId),
      },
    ];
  });
}
