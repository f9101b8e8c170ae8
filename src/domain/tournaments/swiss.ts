import { conflict, fail, succeed, type Outcome } from '../domain-error';
import { newMatch, type BracketMatch, type TeamId } from './bracket-match';
import { allResolved } from './match-flow';
import { computeStandings } from './standings';

/** Pairing search steps before accepting a rematch: bounds the backtracking on large fields. */
const SEARCH_BUDGET = 200_000;

function pairKey(a: TeamId, b: TeamId): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

/**
 * Pair `ranked` (best first) so each team meets the nearest-ranked team it has not met: a
 * depth-first search that tries partners in ranking order keeps pairs inside score groups and
 * falls to the next group only when it must. Null when no pairing without a rematch exists
 * (or the search ran out of budget).
 */
function pairWithoutRematch(ranked: readonly TeamId[], played: ReadonlySet<string>): [TeamId, TeamId][] | null {
  let steps = 0;
  const used = new Set<TeamId>();
  const pairs: [TeamId, TeamId][] = [];
  const search = (): boolean => {
    const first = ranked.find((team) => !used.has(team));
    if (first === undefined) return true;
    used.add(first);
    for (const partner of ranked) {
      if (used.has(partner) || played.has(pairKey(first, partner))) continue;
      if (++steps > SEARCH_BUDGET) break;
      used.add(partner);
      pairs.push([first, partner]);
      if (search()) return true;
      pairs.pop();
      used.delete(partner);
    }
    used.delete(first);
    return false;
  };
  return search() ? pairs : null;
}

function adjacentPairs(ranked: readonly TeamId[]): [TeamId, TeamId][] {
  const pairs: [TeamId, TeamId][] = [];
  for (let i = 0; i + 1 < ranked.length; i += 2) pairs.push([ranked[i]!, ranked[i + 1]!]);
  return pairs;
}

/**
 * The next Swiss round: refused while any match of the rounds so far is undecided (pairing on an
 * unconfirmed result is how Swiss pairings go wrong). Round 1 meets the top half against the
 * bottom half by seed; later rounds pair by score groups with no rematch while one can be avoided.
 * With an odd count the bye goes to the lowest-ranked team that has had none, and among those to
 * the lowest one that still leaves a rematch-free pairing for the rest.
 */
export function pairSwissRound(
  seeded: readonly TeamId[],
  matches: readonly BracketMatch[],
  totalRounds: number,
): Outcome<BracketMatch[], never> {
  if (!allResolved(matches)) return fail(conflict('a match of the current round is not confirmed yet'));
  const round = matches.reduce((max, match) => Math.max(max, match.round), 0) + 1;
  if (round > totalRounds) return fail(conflict('every Swiss round has been played'));

  const active = seeded;
  let ranked: TeamId[];
  if (round === 1) {
    const half = Math.ceil(active.length / 2);
    ranked = [];
    for (let i = 0; i < half; i += 1) {
      ranked.push(active[i]!);
      if (i + half < active.length) ranked.push(active[i + half]!);
    }
  } else {
    ranked = computeStandings('swiss', seeded, matches).map((row) => row.teamId);
  }
  const played = new Set<string>();
  const hadBye = new Set<TeamId>();
  for (const match of matches) {
    if (match.homeTeamId !== null && match.awayTeamId !== null) played.add(pairKey(match.homeTeamId, match.awayTeamId));
    else if (match.status === 'bye') hadBye.add((match.homeTeamId ?? match.awayTeamId)!);
  }

  let bye: TeamId | null = null;
  let pairs: [TeamId, TeamId][] | null = null;
  if (ranked.length % 2 === 1) {
    const candidates = [...ranked].reverse().filter((team) => !hadBye.has(team));
    const pool = candidates.length > 0 ? candidates : [...ranked].reverse();
    for (const candidate of pool) {
      pairs = round === 1 ? adjacentPairs(ranked.filter((t) => t !== candidate)) : pairWithoutRematch(ranked.filter((t) => t !== candidate), played);
      if (pairs !== null) {
        bye = candidate;
        break;
      }
    }
    if (pairs === null) {
      bye = pool[0]!;
      pairs = adjacentPairs(ranked.filter((t) => t !== bye));
    }
  } else {
    pairs = round === 1 ? adjacentPairs(ranked) : (pairWithoutRematch(ranked, played) ?? adjacentPairs(ranked));
  }

  const created = pairs.map(([home, away], index) => newMatch(`S${round}.${index + 1}`, 'swiss', round, index + 1, { team: home }, { team: away }));
  if (bye !== null) created.push(newMatch(`S${round}.${created.length + 1}`, 'swiss', round, created.length + 1, { team: bye }, { team: null }));
  return succeed(created);
}
