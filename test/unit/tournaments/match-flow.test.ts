import { describe, expect, it } from 'vitest';
import { confirmResult, disputeResult, generateBracket, reportResult, setAdminResult, type BracketMatch } from '../../../src/domain/tournaments';
import { teams } from './play-bracket';

function fourTeams(): BracketMatch[] {
  const outcome = generateBracket('single_elimination', teams(4), null);
  if (!outcome.ok) throw outcome.error;
  return outcome.state;
}

function play(matches: BracketMatch[], key: string, homeScore: number, awayScore: number): BracketMatch[] {
  const outcome = setAdminResult(matches, key, { homeScore, awayScore, forfeit: null, resetDependents: false });
  if (!outcome.ok) throw outcome.error;
  return outcome.state.matches;
}

describe('match flow', () => {
  it('advances the winner once the other team confirms', () => {
    const reported = reportResult(fourTeams(), 'R1.1', 4, 2, 0);
    expect(reported.ok && reported.state.match.status).toBe('reported');
    if (!reported.ok) return;
    const confirmed = confirmResult(reported.state.matches, 'R1.1', 1);
    if (!confirmed.ok) throw confirmed.error;
    expect(confirmed.state.matches.find((m) => m.key === 'R2.1')!.homeTeamId).toBe(1);
  });

  it('refuses a confirmation from the reporting team', () => {
    const reported = reportResult(fourTeams(), 'R1.1', 1, 2, 0);
    if (!reported.ok) throw reported.error;
    const confirmed = confirmResult(reported.state.matches, 'R1.1', 1);
    expect(!confirmed.ok && confirmed.error.kind).toBe('forbidden');
  });

  it('refuses a report from a team not in the match', () => {
    const reported = reportResult(fourTeams(), 'R1.1', 2, 2, 0);
    expect(!reported.ok && reported.error.kind).toBe('forbidden');
  });

  it('refuses a draw in an elimination stage', () => {
    const reported = reportResult(fourTeams(), 'R1.1', 1, 1, 1);
    expect(!reported.ok && reported.error.kind).toBe('invalid');
  });

  it('refuses a report on a match that is not ready', () => {
    const reported = reportResult(fourTeams(), 'R2.1', 1, 1, 0);
    expect(!reported.ok && reported.error.kind).toBe('conflict');
  });

  it('marks a disputed match for an admin', () => {
    const reported = reportResult(fourTeams(), 'R1.1', 1, 2, 0);
    if (!reported.ok) throw reported.error;
    const disputed = disputeResult(reported.state.matches, 'R1.1', 4, 'wrong score');
    expect(disputed.ok && disputed.state.match.status).toBe('disputed');
  });

  it('moves a corrected winner into an unplayed next match', () => {
    const matches = play(fourTeams(), 'R1.1', 2, 0);
    const corrected = play(matches, 'R1.1', 0, 2);
    expect(corrected.find((m) => m.key === 'R2.1')!.homeTeamId).toBe(4);
  });

  it('refuses a correction under a played dependant unless told to reset it', () => {
    let matches = play(fourTeams(), 'R1.1', 2, 0);
    matches = play(matches, 'R1.2', 2, 0);
    matches = play(matches, 'R2.1', 2, 0);
    const refused = setAdminResult(matches, 'R1.1', { homeScore: 0, awayScore: 2, forfeit: null, resetDependents: false });
    expect(!refused.ok && refused.error.kind).toBe('conflict');
    const reset = setAdminResult(matches, 'R1.1', { homeScore: 0, awayScore: 2, forfeit: null, resetDependents: true });
    if (!reset.ok) throw reset.error;
    const final = reset.state.matches.find((m) => m.key === 'R2.1')!;
    expect([final.status, final.homeTeamId, final.result]).toEqual(['ready', 4, null]);
  });

  it('gives the opponent a walkover when one side forfeits', () => {
    const outcome = setAdminResult(fourTeams(), 'R1.1', { homeScore: 0, awayScore: 0, forfeit: 'home', resetDependents: false });
    if (!outcome.ok) throw outcome.error;
    expect(outcome.state.match.winnerTeamId).toBe(4);
  });
});
