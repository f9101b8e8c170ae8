import type { EntryFee, Prize } from './cup-terms';

/** Paid entries x fee x (100 - house)%, rounded down: the rounding stays with the house. */
export function prizePool(fee: EntryFee, paidEntries: number, housePercent: number): EntryFee {
  return { amount: Math.floor((paidEntries * fee.amount * (100 - housePercent)) / 100), currency: fee.currency };
}

export interface RankedTeam {
  teamId: number;
  finalRank: number;
  /** Breaks nothing but the order of a tie's slots (the seed). */
  order: number;
}

/** One prize slot: `rank` is the slot (unique per cup), the amount the team's share. */
export interface PayoutLine {
  rank: number;
  teamId: number;
  amount: number;
}

/**
 * Prizes by final rank. Teams tied at a rank take the slots from that rank on and share the prizes
 * of those slots equally (rounded down; the rest stays in the house), as a tie for 3rd shares
 * the 3rd and 4th prizes. A team whose slot has no prize gets no line.
 */
export function payoutLines(pool: number, prizes: readonly Prize[], ranked: readonly RankedTeam[]): PayoutLine[] {
  const percentOf = new Map(prizes.map((p) => [p.rank, p.percent]));
  const sorted = [...ranked].sort((a, b) => a.finalRank - b.finalRank || a.order - b.order);
  const lines: PayoutLine[] = [];
  let slot = 1;
  for (let i = 0; i < sorted.length; ) {
    const tied = sorted.filter((t) => t.finalRank === sorted[i]!.finalRank);
    const slots = tied.map((_, k) => slot + k);
    const percent = slots.reduce((sum, s) => sum + (percentOf.get(s) ?? 0), 0);
    const share = Math.floor((pool * percent) / 100 / tied.length);
    if (share > 0) tied.forEach((team, k) => lines.push({ rank: slots[k]!, teamId: team.teamId, amount: share }));
    slot += tied.length;
    i += tied.length;
  }
  return lines;
}

/** A points prize split over the final roster in equal parts; the remainder goes to the leader. */
export function splitAmongRoster(amount: number, memberIds: readonly number[], leaderId: number): { userId: number; amount: number }[] {
  const members = memberIds.includes(leaderId) ? [...memberIds] : [...memberIds, leaderId];
  const each = Math.floor(amount / members.length);
  const remainder = amount - each * members.length;
  return members
    .map((userId) => ({ userId, amount: each + (userId === leaderId ? remainder : 0) }))
    .filter((part) => part.amount > 0);
}
