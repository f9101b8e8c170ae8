import type { TeamId } from './bracket-match';

/**
 * Seed positions of a power-of-two bracket, in match order: 1 meets `size`, 2 meets `size - 1`,
 * and the top two seeds can only meet in the final. Seats past the team count stay empty, so the
 * byes fall to the top seeds.
 */
export function seedOrder(size: number): number[] {
  let order = [1];
  while (order.length < size) {
    const next = order.length * 2;
    order = order.flatMap((seed) => [seed, next + 1 - seed]);
  }
  return order;
}

export interface SeedCandidate {
  teamId: TeamId;
  /** Average ELO of the members when the tournament starts. */
  averageElo: number;
  /** When the team entered: the earlier entry wins a tie. */
  enteredAt: Date;
}

/** Teams in seed order: highest average ELO first, ties by entry time, then by id. */
export function seedTeams(candidates: readonly SeedCandidate[]): TeamId[] {
  return [...candidates]
    .sort(
      (a, b) =>
        b.averageElo - a.averageElo || a.enteredAt.getTime() - b.enteredAt.getTime() || a.teamId - b.teamId,
    )
    .map((candidate) => candidate.teamId);
}
