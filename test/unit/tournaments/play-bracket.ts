import { confirmResult, reportResult, type BracketMatch } from '../../../src/domain/tournaments';

/** Plays every ready match through report and confirm, `homeWins` choosing each winner, until none is ready. */
export function playOut(start: BracketMatch[], homeWins: (match: BracketMatch) => boolean): BracketMatch[] {
  let matches = start;
  for (;;) {
    const ready = matches.find((match) => match.status === 'ready');
    if (ready === undefined) return matches;
    const home = homeWins(ready);
    const reported = reportResult(matches, ready.key, ready.homeTeamId, home ? 2 : 1, home ? 1 : 2);
    if (!reported.ok) throw reported.error;
    const confirmed = confirmResult(reported.state.matches, ready.key, ready.awayTeamId);
    if (!confirmed.ok) throw confirmed.error;
    matches = confirmed.state.matches;
  }
}

export const teams = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

/** A small seeded generator, so a failing property names its run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}
